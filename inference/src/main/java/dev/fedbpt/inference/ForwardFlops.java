package dev.fedbpt.inference;

import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import java.util.HashMap;
import java.util.Map;

/**
 * The arithmetic of one forward pass, to turn rows per second into operations per second: the products by weight
 * matrices (2 K N per token of every {@code MatMul} by a K x N initializer, read from the graph) and attention's two
 * products of activations (4 T^2 H per layer for a row of T tokens). Layer norms, softmax and the like are left out:
 * they are a few percent of the work and not what a GEMM peak bounds.
 */
public record ForwardFlops(double linearPerToken, int layers, int hidden) {
    /** Operations of one row of {@code tokens} tokens, padding excluded. */
    public double perRow(int tokens) {
        return linearPerToken * tokens + 4.0 * layers * (double) tokens * tokens * hidden;
    }

    static ForwardFlops of(ModelProto model, int layers, int hidden) {
        Map<String, TensorProto> init = new HashMap<>();
        for (TensorProto t : model.getGraph().getInitializerList()) init.put(t.getName(), t);
        double linear = 0;
        for (NodeProto n : model.getGraph().getNodeList()) {
            if (!n.getOpType().equals("MatMul") || n.getInputCount() != 2) continue;
            TensorProto w = init.get(n.getInput(1));
            if (w != null && w.getDimsCount() == 2) linear += 2.0 * w.getDims(0) * w.getDims(1);
        }
        return new ForwardFlops(linear, layers, hidden);
    }
}
