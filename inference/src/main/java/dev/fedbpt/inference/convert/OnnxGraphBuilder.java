package dev.fedbpt.inference.convert;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Writes ONNX nodes the way PyTorch's exporter names them ({@code /scope/Op}, outputs {@code /scope/Op_output_0}), so
 * that a converted graph reads like a HuggingFace export to every tool that walks one.
 */
final class OnnxGraphBuilder {
    private final GraphProto.Builder graph = GraphProto.newBuilder();
    private final java.util.Map<String, Integer> constants = new java.util.HashMap<>();

    OnnxGraphBuilder(String name) {
        graph.setName(name);
    }

    GraphProto.Builder graph() {
        return graph;
    }

    /** Adds node {@code op} called {@code name} and returns its one output, {@code name + "_output_0"}. */
    String node(String op, String name, AttributeProto[] attributes, String... inputs) {
        return named(op, name, name + "_output_0", attributes, inputs);
    }

    /** As {@link #node(String, String, AttributeProto[], String...)}, its output called {@code out}. */
    String named(String op, String name, String out, AttributeProto[] attributes, String... inputs) {
        NodeProto.Builder n = NodeProto.newBuilder().setOpType(op).setName(name).addOutput(out);
        for (String in : inputs) n.addInput(in);
        for (AttributeProto a : attributes) n.addAttribute(a);
        graph.addNode(n);
        return out;
    }

    String node(String op, String name, String... inputs) {
        return node(op, name, new AttributeProto[0], inputs);
    }

    /** A Constant node in {@code scope} holding {@code value}; its output's name. */
    String constant(String scope, TensorProto value) {
        int k = constants.merge(scope, 1, Integer::sum) - 1;
        String name = scope + "/Constant" + (k == 0 ? "" : "_" + k);
        return node("Constant", name, new AttributeProto[] {
            AttributeProto.newBuilder().setName("value").setType(AttributeProto.AttributeType.TENSOR).setT(value)
                    .build()}, new String[0]);
    }

    String scalar(String scope, float v) {
        return constant(scope, floatTensor(null, new long[0], new float[] {v}));
    }

    String longs(String scope, long... v) {
        return constant(scope, longTensor(null, new long[] {v.length}, v));
    }

    String longScalar(String scope, long v) {
        return constant(scope, longTensor(null, new long[0], new long[] {v}));
    }

    void initializer(String name, long[] dims, ByteString littleEndianFloats) {
        TensorProto.Builder t = TensorProto.newBuilder().setName(name).setDataType(TensorProto.DataType.FLOAT_VALUE)
                .setRawData(littleEndianFloats);
        for (long d : dims) t.addDims(d);
        graph.addInitializer(t);
    }

    void initializer(TensorProto t) {
        graph.addInitializer(t);
    }

    void input(String name, TensorProto.DataType type, String... dims) {
        graph.addInput(value(name, type, dims));
    }

    void output(String name, TensorProto.DataType type, Object... dims) {
        graph.addOutput(value(name, type, dims));
    }

    private static ValueInfoProto value(String name, TensorProto.DataType type, Object... dims) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        for (Object d : dims) {
            TensorShapeProto.Dimension.Builder dim = TensorShapeProto.Dimension.newBuilder();
            if (d instanceof String s) dim.setDimParam(s);
            else dim.setDimValue(((Number) d).longValue());
            shape.addDim(dim);
        }
        return ValueInfoProto.newBuilder().setName(name).setType(TypeProto.newBuilder().setTensorType(
                TypeProto.Tensor.newBuilder().setElemType(type.getNumber()).setShape(shape))).build();
    }

    static AttributeProto ints(String name, long... v) {
        AttributeProto.Builder a = AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INTS);
        for (long x : v) a.addInts(x);
        return a.build();
    }

    static AttributeProto intAttr(String name, long v) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INT).setI(v).build();
    }

    static TensorProto floatTensor(String name, long[] dims, float[] values) {
        ByteBuffer buf = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        buf.asFloatBuffer().put(values);
        TensorProto.Builder b = TensorProto.newBuilder().setDataType(TensorProto.DataType.FLOAT_VALUE)
                .setRawData(ByteString.copyFrom(buf.array()));
        if (name != null) b.setName(name);
        for (long d : dims) b.addDims(d);
        return b.build();
    }

    static TensorProto longTensor(String name, long[] dims, long[] values) {
        ByteBuffer buf = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        buf.asLongBuffer().put(values);
        TensorProto.Builder b = TensorProto.newBuilder().setDataType(TensorProto.DataType.INT64_VALUE)
                .setRawData(ByteString.copyFrom(buf.array()));
        if (name != null) b.setName(name);
        for (long d : dims) b.addDims(d);
        return b.build();
    }
}
