package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import org.junit.jupiter.api.Test;

class ForwardFlopsTest {
    @Test
    void countsProductsByWeightMatricesOnlyAndAddsAttentionPerLayer() {
        GraphProto g = GraphProto.newBuilder()
                .addInitializer(GraphRewriter.floatTensor("w1", new long[]{4, 6}, new float[24]))
                .addInitializer(GraphRewriter.floatTensor("w2", new long[]{6, 4}, new float[24]))
                .addInitializer(GraphRewriter.floatTensor("bias", new long[]{4}, new float[4]))
                .addNode(NodeProto.newBuilder().setOpType("MatMul").addInput("x").addInput("w1").addOutput("h"))
                .addNode(NodeProto.newBuilder().setOpType("MatMul").addInput("h").addInput("w2").addOutput("y"))
                .addNode(NodeProto.newBuilder().setOpType("MatMul").addInput("q").addInput("k").addOutput("s"))
                .addNode(NodeProto.newBuilder().setOpType("Add").addInput("y").addInput("bias").addOutput("z"))
                .build();
        ForwardFlops flops = ForwardFlops.of(ModelProto.newBuilder().setGraph(g).build(), 2, 4);
        assertEquals(2.0 * (4 * 6 + 6 * 4), flops.linearPerToken());
        // 10 tokens: 96 per token, plus 2 layers x 4 x 10^2 x 4 for QK^T and AV.
        assertEquals(960 + 3200, flops.perRow(10));
    }
}
