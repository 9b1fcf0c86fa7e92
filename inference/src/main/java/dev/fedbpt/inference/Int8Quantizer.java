package dev.fedbpt.inference;

import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.OperatorSetIdProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Static int8 quantization of a graph's linear layers: every {@code MatMul(x, W)} whose W is an initializer
 * [K, N] (attention projections, feed-forward layers; not the attention's own products of two activations) becomes
 * {@code MatMulIntegerToFloat(QuantizeLinear(x), Wq)}, which ONNX Runtime computes with integer kernels.
 *
 * <p>Why each choice:
 * <ul>
 *   <li><b>Static activation scales</b> (one per tensor, from calibration rows): a row's quantized input depends on
 *       that row alone, so its scores do not depend on the rows batched with it, as in fp32. Dynamic quantization
 *       takes its scale from the whole batch and would not.</li>
 *   <li><b>Exact integer products</b>: x as uint8 with a zero point, W as uint8 with zero point 128 (symmetric values
 *       in [-127, 127], one scale per output column). ONNX Runtime's u8 x s8 kernel on CPUs without VNNI sums pairs
 *       of products into saturating 16-bit lanes (255 x 127 x 2 overflows them; measured: 1,048,544 for an exact
 *       2,072,640), so its result depends on the instruction set; its u8 x u8 kernel widens first and is exact on
 *       every CPU, and was as fast here.</li>
 *   <li>Layers with fewer than {@value #MIN_SIDE} inputs or outputs (a masked-LM head cut to its label words) stay
 *       in float: they cost nothing and carry the scores themselves.</li>
 * </ul>
 */
final class Int8Quantizer {
    static final int MIN_SIDE = 16;
    private static final String DOMAIN = "com.microsoft";

    private Int8Quantizer() {
    }

    /** The inputs x of the graph's quantizable MatMuls, in node order (one entry per distinct tensor). */
    static List<String> activations(ModelProto model) {
        Map<String, TensorProto> init = initializers(model.getGraph());
        Set<String> out = new java.util.LinkedHashSet<>();
        for (NodeProto n : model.getGraph().getNodeList()) {
            if (quantizable(n, init)) out.add(n.getInput(0));
        }
        return new ArrayList<>(out);
    }

    /** The graph with {@code tensors} as extra outputs after its own, for reading their calibration ranges. */
    static ModelProto exposing(ModelProto model, List<String> tensors) {
        GraphProto.Builder g = model.getGraph().toBuilder();
        for (String t : tensors) {
            g.addOutput(ValueInfoProto.newBuilder().setName(t).setType(TypeProto.newBuilder()
                    .setTensorType(TypeProto.Tensor.newBuilder().setElemType(TensorProto.DataType.FLOAT_VALUE))));
        }
        return model.toBuilder().setGraph(g).build();
    }

    /**
     * The graph with its quantizable MatMuls in int8.
     *
     * @param ranges per activation of {@link #activations}: {min, max} seen on the calibration rows
     */
    static ModelProto quantize(ModelProto model, Map<String, float[]> ranges, String name) throws ModelLoadException {
        GraphProto graph = model.getGraph();
        Map<String, TensorProto> init = initializers(graph);
        GraphProto.Builder g = graph.toBuilder().clearNode();
        Map<String, String> quantized = new LinkedHashMap<>(); // activation -> its uint8 tensor
        int k = 0;
        for (NodeProto n : graph.getNodeList()) {
            if (!quantizable(n, init)) {
                g.addNode(n);
                continue;
            }
            String x = n.getInput(0);
            float[] range = ranges.get(x);
            if (range == null) throw new IllegalArgumentException("no calibration range for " + x);
            String xs = "fedbpt/int8/" + x + "/scale";
            String xz = "fedbpt/int8/" + x + "/zero";
            String xq = quantized.get(x);
            if (xq == null) {
                xq = "fedbpt/int8/" + x + "/q";
                float lo = Math.min(0f, range[0]);
                float hi = Math.max(0f, range[1]);
                float scale = hi > lo ? (hi - lo) / 255f : 1f;
                int zero = Math.max(0, Math.min(255, Math.round(-lo / scale)));
                g.addInitializer(GraphRewriter.floatTensor(xs, new long[0], new float[]{scale}));
                g.addInitializer(uint8(xz, new long[0], new byte[]{(byte) zero}));
                g.addNode(NodeProto.newBuilder().setOpType("QuantizeLinear").setName("fedbpt/int8/quantize" + k)
                        .addInput(x).addInput(xs).addInput(xz).addOutput(xq));
                quantized.put(x, xq);
            }
            TensorProto w = init.get(n.getInput(1));
            int rows = (int) w.getDims(0);
            int cols = (int) w.getDims(1);
            float[] weights = GraphRewriter.floats(w, name);
            float[] columnScale = new float[cols];
            for (int c = 0; c < cols; c++) {
                float max = 0;
                for (int i = 0; i < rows; i++) max = Math.max(max, Math.abs(weights[i * cols + c]));
                columnScale[c] = max > 0 ? max / 127f : 1f;
            }
            byte[] wq = new byte[rows * cols];
            for (int i = 0; i < rows; i++) {
                for (int c = 0; c < cols; c++) {
                    int q = Math.max(-127, Math.min(127, Math.round(weights[i * cols + c] / columnScale[c])));
                    wq[i * cols + c] = (byte) (q + 128);
                }
            }
            String p = "fedbpt/int8/matmul" + k++ + "/";
            g.addInitializer(uint8(p + "w", new long[]{rows, cols}, wq));
            g.addInitializer(GraphRewriter.floatTensor(p + "w_scale", new long[]{cols}, columnScale));
            g.addInitializer(uint8(p + "w_zero", new long[0], new byte[]{(byte) 128}));
            g.addNode(NodeProto.newBuilder().setOpType("MatMulIntegerToFloat").setDomain(DOMAIN).setName(p + "op")
                    .addInput(xq).addInput(p + "w").addInput(xs).addInput(p + "w_scale").addInput(xz)
                    .addInput(p + "w_zero").addOutput(n.getOutput(0)));
        }
        Set<String> read = new HashSet<>();
        for (NodeProto n : g.getNodeList()) read.addAll(n.getInputList());
        List<TensorProto> kept = new ArrayList<>();
        for (TensorProto t : g.getInitializerList()) {
            if (read.contains(t.getName())) kept.add(t); // the float weights now unread go
        }
        g.clearInitializer().addAllInitializer(kept);
        ModelProto.Builder out = model.toBuilder().setGraph(g);
        boolean imported = model.getOpsetImportList().stream().anyMatch(o -> DOMAIN.equals(o.getDomain()));
        if (!imported) out.addOpsetImport(OperatorSetIdProto.newBuilder().setDomain(DOMAIN).setVersion(1));
        return out.build();
    }

    /** Widens {@code ranges} (per activation {min, max}) by the values in {@code data}. */
    static void observe(Map<String, float[]> ranges, String activation, float[] data, int length) {
        float[] r = ranges.computeIfAbsent(activation, a -> new float[]{Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY});
        for (int i = 0; i < length; i++) {
            r[0] = Math.min(r[0], data[i]);
            r[1] = Math.max(r[1], data[i]);
        }
    }

    private static boolean quantizable(NodeProto n, Map<String, TensorProto> init) {
        if (!n.getOpType().equals("MatMul") || n.getInputCount() != 2) return false;
        TensorProto w = init.get(n.getInput(1));
        return w != null && w.getDataType() == TensorProto.DataType.FLOAT_VALUE && w.getDimsCount() == 2
                && w.getDims(0) >= MIN_SIDE && w.getDims(1) >= MIN_SIDE && !init.containsKey(n.getInput(0));
    }

    private static Map<String, TensorProto> initializers(GraphProto g) {
        Map<String, TensorProto> init = new HashMap<>();
        for (TensorProto t : g.getInitializerList()) init.put(t.getName(), t);
        return init;
    }

    private static TensorProto uint8(String name, long[] dims, byte[] values) {
        TensorProto.Builder b = TensorProto.newBuilder().setName(name).setDataType(TensorProto.DataType.UINT8_VALUE)
                .setRawData(ByteString.copyFrom(values));
        for (long d : dims) b.addDims(d);
        return b.build();
    }
}
