package dev.fedbpt.inference;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cuts a masked-LM graph's head down to what the masked-LM head reads: the hidden state at each row's [MASK] and
 * the logits of the task's label words, not [batch, seq, vocab] logits of which it keeps a handful (BERT-base's
 * decoder alone is 23 M multiply-adds a token, about a fifth of the model's work).
 *
 * <p>The decoder is the node that computes the graph output: {@code Add(MatMul(t, D), bias)}, D an initializer
 * [hidden, vocab] or the {@code Transpose} of one [vocab, hidden] (a decoder tied to the word embeddings), bias an
 * initializer [vocab]. Before it lies the head's transform (BERT's and RoBERTa's dense, GELU, LayerNorm): the nodes
 * back from t to the first MatMul by a weight initializer, provided each works on one token at a time (elementwise
 * arithmetic, LayerNorm, a ReduceMean over the last axis). The cut gathers the transform's input (or, where no such
 * transform is found, t itself) at the positions the new input {@value #MASK_POSITIONS} names (int64 [batch], row
 * r's flat index r * seq + position), runs the transform on those rows only, and multiplies by the label words'
 * columns of D: the output is [batch, 1, labels]. Everything else that fed only the old decoder is dropped.
 */
final class MaskedLmGather {
    static final String MASK_POSITIONS = "mask_positions";
    private static final Set<String> PER_TOKEN = Set.of("Add", "Sub", "Mul", "Div", "Pow", "Sqrt", "Tanh", "Erf",
            "Relu", "Sigmoid", "Gelu", "FastGelu", "LayerNormalization", "ReduceMean", "Constant", "Cast");

    private MaskedLmGather() {
    }

    /** The cut graph, or null (with the reason in {@code why[0]}) when the head does not have the expected shape. */
    static ModelProto cut(ModelProto model, int[] labelIds, String[] why) {
        GraphProto g = model.getGraph();
        Map<String, TensorProto> init = new HashMap<>();
        for (TensorProto t : g.getInitializerList()) init.put(t.getName(), t);
        Map<String, NodeProto> producer = new HashMap<>();
        for (NodeProto n : g.getNodeList()) for (String o : n.getOutputList()) producer.put(o, n);
        String output = g.getOutput(0).getName();

        NodeProto add = producer.get(output);
        if (add == null || !add.getOpType().equals("Add") || add.getInputCount() != 2) {
            return refuse(why, "the output " + output + " is not computed by an Add (the decoder's bias)");
        }
        int biasSide = init.containsKey(add.getInput(1)) ? 1 : init.containsKey(add.getInput(0)) ? 0 : -1;
        if (biasSide < 0) return refuse(why, "the decoder's Add has no bias initializer");
        TensorProto bias = init.get(add.getInput(biasSide));
        NodeProto matMul = producer.get(add.getInput(1 - biasSide));
        if (matMul == null || !matMul.getOpType().equals("MatMul")) {
            return refuse(why, "the decoder's bias is not added to a MatMul");
        }
        if (bias.getDimsCount() != 1) return refuse(why, "the decoder's bias is not a vector");
        int vocab = (int) bias.getDims(0);
        float[] columns = labelColumns(matMul.getInput(1), init, producer, vocab, labelIds);
        if (columns == null) {
            return refuse(why, "the decoder MatMul's weight is neither an initializer [hidden, vocab] nor the "
                    + "Transpose of one [vocab, hidden]");
        }
        int hidden = columns.length / labelIds.length;
        String t = matMul.getInput(0);

        // the transform between the encoder's output and t, if it works token by token
        Set<NodeProto> transform = new HashSet<>();
        String cutAt = transformInput(t, producer, init, transform);
        if (cutAt == null) {
            transform.clear();
            cutAt = t;
        }
        String flat = "fedbpt/head/flat";
        String gathered = "fedbpt/head/gathered";
        String atMask = "fedbpt/head/at_mask";
        String logits = "fedbpt/head/label_logits";
        GraphProto.Builder b = g.toBuilder().clearNode();
        List<TensorProto> added = new ArrayList<>();
        added.add(GraphRewriter.longTensor("fedbpt/head/flat_shape", -1, hidden));
        added.add(GraphRewriter.floatTensor("fedbpt/head/label_decoder", new long[] {hidden, labelIds.length},
                transpose(columns, labelIds.length, hidden)));
        float[] biasValues;
        try {
            biasValues = GraphRewriter.floats(bias, "decoder bias");
        } catch (ModelLoadException e) {
            return refuse(why, e.getMessage());
        }
        float[] labelBias = new float[labelIds.length];
        for (int c = 0; c < labelIds.length; c++) labelBias[c] = biasValues[labelIds[c]];
        added.add(GraphRewriter.floatTensor("fedbpt/head/label_bias", new long[] {labelIds.length}, labelBias));

        NodeProto cutProducer = producer.get(cutAt);
        if (cutProducer == null) addGather(b, cutAt, flat, gathered, atMask); // a graph input
        for (NodeProto n : g.getNodeList()) {
            if (n == matMul || n == add) continue;
            NodeProto.Builder nb = n.toBuilder();
            if (transform.contains(n)) {
                for (int i = 0; i < nb.getInputCount(); i++) if (nb.getInput(i).equals(cutAt)) nb.setInput(i, atMask);
            }
            b.addNode(nb);
            if (n == cutProducer) addGather(b, cutAt, flat, gathered, atMask);
        }
        String decoderIn = transform.isEmpty() ? atMask : t;
        b.addNode(NodeProto.newBuilder().setOpType("MatMul").setName("fedbpt/head/MatMul").addInput(decoderIn)
                .addInput("fedbpt/head/label_decoder").addOutput(logits));
        b.addNode(NodeProto.newBuilder().setOpType("Add").setName("fedbpt/head/Add").addInput(logits)
                .addInput("fedbpt/head/label_bias").addOutput(output));
        b.addAllInitializer(added);
        b.addInput(ValueInfoProto.newBuilder().setName(MASK_POSITIONS).setType(TypeProto.newBuilder()
                .setTensorType(TypeProto.Tensor.newBuilder().setElemType(TensorProto.DataType.INT64_VALUE)
                        .setShape(TensorShapeProto.newBuilder().addDim(TensorShapeProto.Dimension.newBuilder()
                                .setDimParam("batch_size"))))));
        b.setOutput(0, g.getOutput(0).toBuilder().setType(TypeProto.newBuilder().setTensorType(
                TypeProto.Tensor.newBuilder().setElemType(TensorProto.DataType.FLOAT_VALUE).setShape(
                        TensorShapeProto.newBuilder()
                                .addDim(TensorShapeProto.Dimension.newBuilder().setDimParam("batch_size"))
                                .addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(1))
                                .addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(labelIds.length))))));
        b.clearValueInfo();
        return model.toBuilder().setGraph(prune(b)).build();
    }

    /**
     * Walks back from t through token-by-token nodes to the first MatMul by a weight initializer; returns that
     * MatMul's data input (the encoder's output) and fills {@code region} with the nodes walked, or returns null
     * when a node on the way mixes tokens or reads another non-constant value.
     */
    private static String transformInput(String t, Map<String, NodeProto> producer, Map<String, TensorProto> init,
                                         Set<NodeProto> region) {
        Deque<String> todo = new ArrayDeque<>(List.of(t));
        String start = null;
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String v = todo.pop();
            if (!seen.add(v) || init.containsKey(v) || v.equals(start)) continue;
            NodeProto n = producer.get(v);
            if (n == null) return null; // a graph input inside the head
            if (n.getOpType().equals("MatMul") && n.getInputCount() == 2 && init.containsKey(n.getInput(1))
                    && init.get(n.getInput(1)).getDimsCount() == 2) {
                if (start != null && !start.equals(n.getInput(0))) return null;
                start = n.getInput(0);
                region.add(n);
                continue;
            }
            if (!PER_TOKEN.contains(n.getOpType()) || !lastAxisOnly(n)) return null;
            region.add(n);
            todo.addAll(n.getInputList());
        }
        return start;
    }

    /** A ReduceMean must reduce the last axis only; LayerNormalization must normalise it only. */
    private static boolean lastAxisOnly(NodeProto n) {
        for (AttributeProto a : n.getAttributeList()) {
            if (n.getOpType().equals("ReduceMean") && a.getName().equals("axes")) {
                return a.getIntsCount() == 1 && a.getInts(0) == -1;
            }
            if (n.getOpType().equals("LayerNormalization") && a.getName().equals("axis")) return a.getI() == -1;
        }
        return !n.getOpType().equals("ReduceMean");
    }

    /** Reshape(cutAt, [-1, hidden]), Gather(rows = mask_positions), Unsqueeze(1): [batch, 1, hidden]. */
    private static void addGather(GraphProto.Builder b, String cutAt, String flat, String gathered, String atMask) {
        b.addNode(NodeProto.newBuilder().setOpType("Reshape").setName("fedbpt/head/Reshape").addInput(cutAt)
                .addInput("fedbpt/head/flat_shape").addOutput(flat));
        b.addNode(NodeProto.newBuilder().setOpType("Gather").setName("fedbpt/head/Gather").addInput(flat)
                .addInput(MASK_POSITIONS).addOutput(gathered)
                .addAttribute(AttributeProto.newBuilder().setName("axis").setType(AttributeProto.AttributeType.INT)
                        .setI(0)));
        b.addNode(NodeProto.newBuilder().setOpType("Unsqueeze").setName("fedbpt/head/Unsqueeze").addInput(gathered)
                .addOutput(atMask).addAttribute(AttributeProto.newBuilder().setName("axes")
                        .setType(AttributeProto.AttributeType.INTS).addInts(1)));
    }

    /** The label words' decoder columns as rows [labels, hidden], or null. */
    private static float[] labelColumns(String weight, Map<String, TensorProto> init, Map<String, NodeProto> producer,
                                        int vocab, int[] labelIds) {
        try {
            TensorProto w = init.get(weight);
            if (w != null && w.getDimsCount() == 2 && w.getDims(1) == vocab) { // [hidden, vocab]
                int hidden = (int) w.getDims(0);
                float[] all = GraphRewriter.floats(w, weight);
                float[] out = new float[labelIds.length * hidden];
                for (int c = 0; c < labelIds.length; c++) {
                    for (int h = 0; h < hidden; h++) out[c * hidden + h] = all[h * vocab + labelIds[c]];
                }
                return out;
            }
            NodeProto tr = producer.get(weight);
            if (tr == null || !tr.getOpType().equals("Transpose")) return null;
            TensorProto e = init.get(tr.getInput(0));
            if (e == null || e.getDimsCount() != 2 || e.getDims(0) != vocab) return null;
            int hidden = (int) e.getDims(1);
            float[] all = GraphRewriter.floats(e, tr.getInput(0));
            float[] out = new float[labelIds.length * hidden];
            for (int c = 0; c < labelIds.length; c++) System.arraycopy(all, labelIds[c] * hidden, out, c * hidden, hidden);
            return out;
        } catch (ModelLoadException ex) {
            return null;
        }
    }

    /** Drops the nodes and initializers nothing reaching the output reads any more. */
    private static GraphProto prune(GraphProto.Builder b) {
        Map<String, NodeProto> producer = new HashMap<>();
        for (NodeProto n : b.getNodeList()) for (String o : n.getOutputList()) producer.put(o, n);
        Set<String> needed = new HashSet<>();
        Deque<String> todo = new ArrayDeque<>();
        for (ValueInfoProto o : b.getOutputList()) todo.add(o.getName());
        Set<NodeProto> live = new HashSet<>();
        while (!todo.isEmpty()) {
            String v = todo.pop();
            if (!needed.add(v)) continue;
            NodeProto n = producer.get(v);
            if (n != null && live.add(n)) todo.addAll(n.getInputList());
        }
        List<NodeProto> nodes = new ArrayList<>(b.getNodeList());
        b.clearNode();
        for (NodeProto n : nodes) if (live.contains(n)) b.addNode(n);
        List<TensorProto> inits = new ArrayList<>(b.getInitializerList());
        b.clearInitializer();
        for (TensorProto t : inits) if (needed.contains(t.getName())) b.addInitializer(t);
        List<ValueInfoProto> inputs = new ArrayList<>(b.getInputList());
        b.clearInput();
        for (ValueInfoProto in : inputs) if (needed.contains(in.getName())) b.addInput(in);
        return b.build();
    }

    private static float[] transpose(float[] rows, int r, int c) {
        float[] out = new float[rows.length];
        for (int i = 0; i < r; i++) for (int j = 0; j < c; j++) out[j * r + i] = rows[i * c + j];
        return out;
    }

    private static ModelProto refuse(String[] why, String reason) {
        why[0] = reason;
        return null;
    }
}
