package dev.fedbpt.inference;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.OperatorSetIdProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;

/**
 * What this machine's cores reach on one large matrix product in ONNX Runtime, the ceiling of a forward pass: an
 * fp32 {@code MatMul} and the int8 product {@link Int8Quantizer} writes ({@code QuantizeLinear} then
 * {@code MatMulIntegerToFloat}, u8 x u8), of the shape of a BERT-base feed-forward layer on a batch of rows. The
 * ratio of the two peaks bounds what int8 can gain on a forward pass made mostly of such products.
 */
public final class GemmPeak {
    /** {@code rows} x {@code inner} times {@code inner} x {@code columns}; 2 x rows x inner x columns operations. */
    public record Shape3(int rows, int inner, int columns) {
        public double operations() {
            return 2.0 * rows * inner * columns;
        }

        @Override
        public String toString() {
            return rows + "x" + inner + "x" + columns;
        }
    }

    /** The BERT-base feed-forward input layer on 32 rows of 64 tokens. */
    public static final Shape3 FEED_FORWARD = new Shape3(32 * 64, 768, 3072);

    /** Billions of multiply-adds x 2 per second; int8 includes quantizing its input, as a forward pass does. */
    public record Result(Shape3 shape, int threads, double fp32GigaFlops, double int8GigaOps) {
        public double ratio() {
            return int8GigaOps / fp32GigaFlops;
        }
    }

    private GemmPeak() {
    }

    /** Times both products in turn, {@code repeats} times each after a warm-up; medians. */
    public static Result measure(Shape3 shape, ModelOptions options, int repeats) throws ModelLoadException {
        ModelProto fp32 = graph(shape);
        ModelProto int8 = Int8Quantizer.quantize(fp32, Map.of("x", new float[]{-1f, 1f}), "gemm");
        float[] x = bounded(shape.rows() * shape.inner(), 7);
        try (OnnxSession a = OnnxSession.load(fp32.toByteArray(), "fedbpt-gemm-fp32", options);
             OnnxSession b = OnnxSession.load(int8.toByteArray(), "fedbpt-gemm-int8", options)) {
            double[] ta = new double[repeats];
            double[] tb = new double[repeats];
            seconds(a, shape, x);
            seconds(b, shape, x);
            for (int k = 0; k < repeats; k++) {
                ta[k] = seconds(a, shape, x);
                tb[k] = seconds(b, shape, x);
            }
            return new Result(shape, options.intraOpThreads(), shape.operations() / median(ta) / 1e9,
                    shape.operations() / median(tb) / 1e9);
        }
    }

    private static double seconds(OnnxSession session, Shape3 shape, float[] x) {
        ByteBuffer bytes = ByteBuffer.allocateDirect(x.length * Float.BYTES).order(ByteOrder.nativeOrder());
        bytes.asFloatBuffer().put(x);
        try (NDManager manager = session.newCallManager()) {
            NDList in = new NDList(OnnxSession.wrap(manager, bytes, new Shape(shape.rows(), shape.inner()),
                    DataType.FLOAT32, "x"));
            long t0 = System.nanoTime();
            NDList out = session.forward(in);
            double s = (System.nanoTime() - t0) / 1e9;
            out.close();
            return s;
        }
    }

    private static ModelProto graph(Shape3 s) {
        GraphProto g = GraphProto.newBuilder().setName("gemm")
                .addInput(floatInfo("x", s.rows(), s.inner()))
                .addInitializer(GraphRewriter.floatTensor("w", new long[]{s.inner(), s.columns()},
                        bounded(s.inner() * s.columns(), 11)))
                .addNode(NodeProto.newBuilder().setOpType("MatMul").setName("matmul").addInput("x").addInput("w")
                        .addOutput("y"))
                .addOutput(floatInfo("y", s.rows(), s.columns()))
                .build();
        return ModelProto.newBuilder().setIrVersion(6).setProducerName("fedbpt").setGraph(g)
                .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(11)).build();
    }

    private static ValueInfoProto floatInfo(String name, long... dims) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        for (long d : dims) shape.addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        return ValueInfoProto.newBuilder().setName(name).setType(TypeProto.newBuilder().setTensorType(
                TypeProto.Tensor.newBuilder().setElemType(TensorProto.DataType.FLOAT_VALUE).setShape(shape))).build();
    }

    /** Values in (-1, 1) from a fixed stream: the timing does not depend on them, only on their count. */
    private static float[] bounded(int n, long seed) {
        GaussianStream g = new GaussianStream(seed);
        float[] out = new float[n];
        for (int i = 0; i < n; i++) out[i] = (float) Math.tanh(g.next());
        return out;
    }

    private static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
