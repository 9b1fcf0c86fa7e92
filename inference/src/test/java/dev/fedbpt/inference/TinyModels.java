package dev.fedbpt.inference;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.OperatorSetIdProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Builds tiny BERT-shaped ONNX graphs (vocab 50, hidden 8, 16 positions) and a WordLevel tokenizer.json for tests.
 * The graph: word Gather + token-type Gather + position Gather (position ids sliced with Shape(input_ids)), one
 * masked single-head self-attention, then either a MatMul to vocabulary logits (masked LM) or the attention output
 * (hidden states).
 */
final class TinyModels {
    static final int VOCAB = 50;
    static final int HIDDEN = 8;
    static final int POSITIONS = 16;
    static final List<String> WORDS = List.of("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "it", "was", "good",
            "bad", "great", "terrible", "movie", "the", "a", ".", "film", "plot", "acting", "very", "not");

    enum Variant { MASKED_LM, HIDDEN_STATES, NO_GATHER, IDS_TWICE }

    private TinyModels() {
    }

    static ModelProto build(Variant variant, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        GraphProto.Builder g = GraphProto.newBuilder().setName("tiny");
        g.addInput(intInput("input_ids")).addInput(intInput("attention_mask")).addInput(intInput("token_type_ids"));
        g.addInitializer(floats("word_embeddings.weight", rnd, VOCAB, HIDDEN));
        g.addInitializer(floats("token_type_embeddings.weight", rnd, 2, HIDDEN));
        g.addInitializer(floats("position_embeddings.weight", rnd, POSITIONS, HIDDEN));
        TensorProto decoder = floats("decoder.weight", rnd, HIDDEN, VOCAB);
        if (variant != Variant.HIDDEN_STATES) g.addInitializer(decoder);
        long[] pos = new long[POSITIONS];
        for (int i = 0; i < POSITIONS; i++) pos[i] = i;
        g.addInitializer(longs("position_ids", new long[] {1, POSITIONS}, pos));
        g.addInitializer(longs("one_idx", new long[] {}, new long[] {1}));
        g.addInitializer(longs("zero1", new long[] {1}, new long[] {0}));
        g.addInitializer(longs("one1", new long[] {1}, new long[] {1}));
        g.addInitializer(scalar("one_f", 1f));
        g.addInitializer(scalar("neg_big", -10000f));

        if (variant == Variant.NO_GATHER) {
            // word "embeddings" from a Cast and a MatMul of one-hot-ish values: no Gather on input_ids
            g.addNode(node("Cast", "cast_ids", List.of("input_ids"), List.of("ids_f"), intAttr("to", 1)));
            g.addNode(node("Unsqueeze", "unsq_ids", List.of("ids_f"), List.of("ids_f3"), intsAttr("axes", 2)));
            g.addInitializer(floats("row_scale", rnd, 1, HIDDEN));
            g.addNode(node("MatMul", "fake_embed", List.of("ids_f3", "row_scale"), List.of("we")));
        } else {
            g.addNode(node("Gather", "word_gather", List.of("word_embeddings.weight", "input_ids"), List.of("we")));
        }
        if (variant == Variant.IDS_TWICE) {
            g.addNode(node("Cast", "ids_cast_extra", List.of("input_ids"), List.of("ids_float"), intAttr("to", 1)));
        }
        g.addNode(node("Gather", "type_gather", List.of("token_type_embeddings.weight", "token_type_ids"), List.of("te")));
        g.addNode(node("Shape", "ids_shape", List.of("input_ids"), List.of("shape")));
        g.addNode(node("Gather", "seq_len", List.of("shape", "one_idx"), List.of("seq"), intAttr("axis", 0)));
        g.addNode(node("Unsqueeze", "seq_unsq", List.of("seq"), List.of("seq1"), intsAttr("axes", 0)));
        g.addNode(node("Slice", "pos_slice", List.of("position_ids", "zero1", "seq1", "one1"), List.of("pos")));
        g.addNode(node("Gather", "pos_gather", List.of("position_embeddings.weight", "pos"), List.of("pe")));
        g.addNode(node("Add", "add_type", List.of("we", "te"), List.of("e1")));
        g.addNode(node("Add", "add_pos", List.of("e1", "pe"), List.of("x")));
        if (variant == Variant.IDS_TWICE) {
            g.addNode(node("Unsqueeze", "ids_unsq_extra", List.of("ids_float"), List.of("ids_f3")  , intsAttr("axes", 2)));
            g.addNode(node("Add", "x_plus_ids", List.of("x", "ids_f3"), List.of("x2")));
        }
        String xName = variant == Variant.IDS_TWICE ? "x2" : "x";
        // attention: softmax(x x^T + (1 - mask) * -10000) x
        g.addNode(node("Transpose", "xt", List.of(xName), List.of("x_t"), intsAttr("perm", 0, 2, 1)));
        g.addNode(node("MatMul", "scores", List.of(xName, "x_t"), List.of("s")));
        g.addNode(node("Cast", "mask_f", List.of("attention_mask"), List.of("m_f"), intAttr("to", 1)));
        g.addNode(node("Unsqueeze", "mask_unsq", List.of("m_f"), List.of("m3"), intsAttr("axes", 1)));
        g.addNode(node("Sub", "mask_inv", List.of("one_f", "m3"), List.of("m_inv")));
        g.addNode(node("Mul", "mask_big", List.of("m_inv", "neg_big"), List.of("m_add")));
        g.addNode(node("Add", "scores_masked", List.of("s", "m_add"), List.of("s_m")));
        g.addNode(node("Softmax", "softmax", List.of("s_m"), List.of("p"), intAttr("axis", 2)));
        g.addNode(node("MatMul", "context", List.of("p", xName), List.of("ctx")));
        g.addNode(node("Add", "residual", List.of("ctx", xName), List.of("h")));
        if (variant == Variant.HIDDEN_STATES) {
            g.addNode(node("Identity", "out", List.of("h"), List.of("last_hidden_state")));
            g.addOutput(floatOutput("last_hidden_state", HIDDEN));
        } else {
            g.addNode(node("MatMul", "decoder", List.of("h", "decoder.weight"), List.of("logits")));
            g.addOutput(floatOutput("logits", VOCAB));
        }
        return ModelProto.newBuilder().setIrVersion(6).setProducerName("fedbpt-test")
                .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(11)).setGraph(g).build();
    }

    static Path write(Path dir, Variant variant, long seed) throws IOException {
        Path p = dir.resolve("tiny-" + variant.name().toLowerCase() + ".onnx");
        Files.write(p, build(variant, seed).toByteArray());
        return p;
    }

    /** WordLevel tokenizer over {@link #WORDS} plus filler words w20..w49; BERT-style [CLS] ... [SEP]. */
    static Path writeTokenizer(Path dir) throws IOException {
        StringBuilder vocab = new StringBuilder();
        List<String> all = new ArrayList<>(WORDS);
        for (int i = WORDS.size(); i < VOCAB; i++) all.add("w" + i);
        for (int i = 0; i < all.size(); i++) {
            if (i > 0) vocab.append(',');
            vocab.append('"').append(all.get(i)).append("\":").append(i);
        }
        StringBuilder added = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            if (i > 0) added.append(',');
            added.append("{\"id\":").append(i).append(",\"content\":\"").append(all.get(i))
                    .append("\",\"single_word\":false,\"lstrip\":false,\"rstrip\":false,\"normalized\":false,\"special\":true}");
        }
        String json = "{\"version\":\"1.0\",\"truncation\":null,\"padding\":null,\"added_tokens\":[" + added + "],"
                + "\"normalizer\":{\"type\":\"Lowercase\"},\"pre_tokenizer\":{\"type\":\"Whitespace\"},"
                + "\"post_processor\":{\"type\":\"BertProcessing\",\"sep\":[\"[SEP]\",3],\"cls\":[\"[CLS]\",2]},"
                + "\"decoder\":null,\"model\":{\"type\":\"WordLevel\",\"vocab\":{" + vocab + "},\"unk_token\":\"[UNK]\"}}";
        Path p = dir.resolve("tokenizer.json");
        Files.writeString(p, json);
        return p;
    }

    private static ValueInfoProto intInput(String name) {
        return ValueInfoProto.newBuilder().setName(name).setType(TypeProto.newBuilder().setTensorType(
                TypeProto.Tensor.newBuilder().setElemType(TensorProto.DataType.INT64_VALUE).setShape(
                        TensorShapeProto.newBuilder()
                                .addDim(TensorShapeProto.Dimension.newBuilder().setDimParam("batch"))
                                .addDim(TensorShapeProto.Dimension.newBuilder().setDimParam("seq"))))).build();
    }

    private static ValueInfoProto floatOutput(String name, int last) {
        return ValueInfoProto.newBuilder().setName(name).setType(TypeProto.newBuilder().setTensorType(
                TypeProto.Tensor.newBuilder().setElemType(TensorProto.DataType.FLOAT_VALUE).setShape(
                        TensorShapeProto.newBuilder()
                                .addDim(TensorShapeProto.Dimension.newBuilder().setDimParam("batch"))
                                .addDim(TensorShapeProto.Dimension.newBuilder().setDimParam("seq"))
                                .addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(last))))).build();
    }

    private static TensorProto floats(String name, SplittableRandom rnd, int rows, int cols) {
        TensorProto.Builder t = TensorProto.newBuilder().setName(name).setDataType(TensorProto.DataType.FLOAT_VALUE)
                .addDims(rows).addDims(cols);
        for (int i = 0; i < rows * cols; i++) t.addFloatData((float) (rnd.nextDouble() * 2 - 1));
        return t.build();
    }

    private static TensorProto scalar(String name, float v) {
        return TensorProto.newBuilder().setName(name).setDataType(TensorProto.DataType.FLOAT_VALUE).addFloatData(v).build();
    }

    private static TensorProto longs(String name, long[] dims, long[] values) {
        TensorProto.Builder t = TensorProto.newBuilder().setName(name).setDataType(TensorProto.DataType.INT64_VALUE);
        for (long d : dims) t.addDims(d);
        for (long v : values) t.addInt64Data(v);
        return t.build();
    }

    private static NodeProto node(String op, String name, List<String> in, List<String> out, AttributeProto... attrs) {
        NodeProto.Builder n = NodeProto.newBuilder().setOpType(op).setName(name).addAllInput(in).addAllOutput(out);
        for (AttributeProto a : attrs) n.addAttribute(a);
        return n.build();
    }

    private static AttributeProto intAttr(String name, long v) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INT).setI(v).build();
    }

    private static AttributeProto intsAttr(String name, long... v) {
        AttributeProto.Builder a = AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INTS);
        for (long x : v) a.addInts(x);
        return a.build();
    }
}
