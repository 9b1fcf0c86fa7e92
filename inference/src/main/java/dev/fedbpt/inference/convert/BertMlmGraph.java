package dev.fedbpt.inference.convert;

import static dev.fedbpt.inference.convert.OnnxGraphBuilder.intAttr;
import static dev.fedbpt.inference.convert.OnnxGraphBuilder.ints;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.OperatorSetIdProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Google's BERT with its masked-LM head ({@code cls/predictions}) as an ONNX graph, from the variables of a TF-Hub
 * BERT module. The arithmetic is the TF graph's: tanh-approximated GELU, LayerNorm epsilon 1e-12, attention scores
 * scaled by 1/sqrt(head size) plus (1 - mask) * -10000, the decoder tied to the word embeddings plus
 * {@code output_bias}. Inputs {@code input_ids}, {@code attention_mask}, {@code token_type_ids} (int64
 * [batch, seq]); output {@code logits} [batch, seq, vocab].
 *
 * <p>Nodes and weights are named as HuggingFace's opset-11 export of {@code BertForMaskedLM} names them (LayerNorm
 * decomposed, {@code /encoder/layer.N/attention/self/query/MatMul}, {@code encoder.layer.N.attention.self.query.bias}),
 * so the graph rewrite and the white-box backend read it as they read any other BERT-family export.
 */
public final class BertMlmGraph {
    static final float LAYER_NORM_EPS = 1e-12f;
    static final float MASK_VALUE = -10000f;
    private static final String TF = "module/";
    private static final Pattern LAYER = Pattern.compile("^module/bert/encoder/layer_(\\d+)/");

    /** The sizes of a BERT, read from the bundle's shapes; the head count is not in the variables. */
    public record Shape(int vocab, int hidden, int layers, int heads, int intermediate, int positions, int types) {
        int headSize() {
            return hidden / heads;
        }
    }

    private final TensorBundle bundle;
    private final Shape shape;
    private final OnnxGraphBuilder b = new OnnxGraphBuilder("bert-mlm");

    private BertMlmGraph(TensorBundle bundle, Shape shape) {
        this.bundle = bundle;
        this.shape = shape;
    }

    /** The sizes of the BERT in {@code bundle}, with {@code heads} attention heads. */
    public static Shape shape(TensorBundle bundle, int heads) throws ConversionException {
        long[] words = entry(bundle, "bert/embeddings/word_embeddings").shape();
        long[] positions = entry(bundle, "bert/embeddings/position_embeddings").shape();
        long[] types = entry(bundle, "bert/embeddings/token_type_embeddings").shape();
        long[] intermediate = entry(bundle, "bert/encoder/layer_0/intermediate/dense/kernel").shape();
        int layers = 0;
        for (String name : bundle.entries().keySet()) {
            Matcher m = LAYER.matcher(name);
            if (m.find()) layers = Math.max(layers, Integer.parseInt(m.group(1)) + 1);
        }
        if (words.length != 2 || positions.length != 2 || types.length != 2 || intermediate.length != 2) {
            throw new ConversionException("the embedding and intermediate tensors are not matrices");
        }
        int hidden = (int) words[1];
        if (heads <= 0 || hidden % heads != 0) {
            throw new ConversionException(heads + " attention heads do not divide the hidden size " + hidden);
        }
        return new Shape((int) words[0], hidden, layers, heads, (int) intermediate[1], (int) positions[0],
                (int) types[0]);
    }

    /** The ONNX model of {@code bundle}'s BERT and MLM head; its weights are views of the bundle's data. */
    public static ModelProto build(TensorBundle bundle, Shape shape) throws ConversionException {
        return new BertMlmGraph(bundle, shape).build();
    }

    private static TensorBundle.Entry entry(TensorBundle bundle, String tfName) throws ConversionException {
        TensorBundle.Entry e = bundle.entries().get(TF + tfName);
        if (e == null) throw new ConversionException("the bundle has no tensor " + TF + tfName + ": not a BERT module");
        return e;
    }

    private ModelProto build() throws ConversionException {
        int h = shape.hidden();
        b.input("input_ids", TensorProto.DataType.INT64, "batch_size", "sequence_length");
        b.input("attention_mask", TensorProto.DataType.INT64, "batch_size", "sequence_length");
        b.input("token_type_ids", TensorProto.DataType.INT64, "batch_size", "sequence_length");
        weight("embeddings.word_embeddings.weight", "bert/embeddings/word_embeddings", shape.vocab(), h);
        weight("embeddings.position_embeddings.weight", "bert/embeddings/position_embeddings", shape.positions(), h);
        weight("embeddings.token_type_embeddings.weight", "bert/embeddings/token_type_embeddings", shape.types(), h);
        long[] ids = new long[shape.positions()];
        for (int i = 0; i < ids.length; i++) ids[i] = i;
        b.initializer(OnnxGraphBuilder.longTensor("embeddings.position_ids", new long[] {1, ids.length}, ids));

        String additiveMask = attentionMask();
        String x = embeddings();
        for (int l = 0; l < shape.layers(); l++) x = layer(l, x, additiveMask);
        String logits = head(x);
        b.output(logits, TensorProto.DataType.FLOAT, "batch_size", "sequence_length", shape.vocab());
        return ModelProto.newBuilder().setIrVersion(6).setProducerName("fedbpt").setProducerVersion("1")
                .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(11))
                .setGraph(b.graph()).build();
    }

    /** (1 - mask) * -10000 as [batch, 1, 1, seq], added to every layer's attention scores. */
    private String attentionMask() {
        String u = b.node("Unsqueeze", "/Unsqueeze", new AttributeProto[] {ints("axes", 1)}, "attention_mask");
        u = b.node("Unsqueeze", "/Unsqueeze_1", new AttributeProto[] {ints("axes", 2)}, u);
        String cast = b.node("Cast", "/Cast", new AttributeProto[] {intAttr("to", 1)}, u);
        String sub = b.node("Sub", "/Sub", b.scalar("", 1f), cast);
        return b.node("Mul", "/Mul", sub, b.scalar("", MASK_VALUE));
    }

    private String embeddings() throws ConversionException {
        String s = "/embeddings";
        String shapeOf = b.node("Shape", s + "/Shape", "input_ids");
        String seq = b.node("Gather", s + "/Gather", new AttributeProto[] {intAttr("axis", 0)}, shapeOf,
                b.longScalar(s, 1));
        String start = b.longs(s, 0);
        String end = b.node("Unsqueeze", s + "/Unsqueeze", new AttributeProto[] {ints("axes", 0)}, seq);
        String positions = b.node("Slice", s + "/Slice", "embeddings.position_ids", start, end, b.longs(s, 1),
                b.longs(s, 1));
        String words = b.node("Gather", s + "/word_embeddings/Gather", "embeddings.word_embeddings.weight",
                "input_ids");
        String types = b.node("Gather", s + "/token_type_embeddings/Gather",
                "embeddings.token_type_embeddings.weight", "token_type_ids");
        String sum = b.node("Add", s + "/Add", words, types);
        String pos = b.node("Gather", s + "/position_embeddings/Gather", "embeddings.position_embeddings.weight",
                positions);
        sum = b.node("Add", s + "/Add_1", sum, pos);
        return layerNorm(s + "/LayerNorm", sum, "embeddings.LayerNorm", "bert/embeddings/LayerNorm");
    }

    private String layer(int l, String x, String additiveMask) throws ConversionException {
        String s = "/encoder/layer." + l;
        String w = "encoder.layer." + l;
        String tf = "bert/encoder/layer_" + l;
        int h = shape.hidden();
        String q = linear(s + "/attention/self/query", x, w + ".attention.self.query", tf + "/attention/self/query",
                h, h);
        String k = linear(s + "/attention/self/key", x, w + ".attention.self.key", tf + "/attention/self/key", h, h);
        String v = linear(s + "/attention/self/value", x, w + ".attention.self.value", tf + "/attention/self/value",
                h, h);
        String a = s + "/attention/self";
        String split = b.longs(a, 0, 0, shape.heads(), shape.headSize());
        String kt = b.node("Transpose", a + "/Transpose_2", new AttributeProto[] {ints("perm", 0, 2, 3, 1)},
                b.node("Reshape", a + "/Reshape", k, split));
        String vh = b.node("Transpose", a + "/Transpose", new AttributeProto[] {ints("perm", 0, 2, 1, 3)},
                b.node("Reshape", a + "/Reshape_1", v, split));
        String qh = b.node("Transpose", a + "/Transpose_1", new AttributeProto[] {ints("perm", 0, 2, 1, 3)},
                b.node("Reshape", a + "/Reshape_2", q, split));
        String scores = b.node("MatMul", a + "/MatMul", qh, kt);
        scores = b.node("Div", a + "/Div", scores, b.scalar(a, (float) Math.sqrt(shape.headSize())));
        scores = b.node("Add", a + "/Add", scores, additiveMask);
        String probs = b.node("Softmax", a + "/Softmax", new AttributeProto[] {intAttr("axis", 3)}, scores);
        String context = b.node("MatMul", a + "/MatMul_1", probs, vh);
        context = b.node("Transpose", a + "/Transpose_3", new AttributeProto[] {ints("perm", 0, 2, 1, 3)}, context);
        context = b.node("Reshape", a + "/Reshape_3", context, b.longs(a, 0, 0, h));
        String dense = linear(s + "/attention/output/dense", context, w + ".attention.output.dense",
                tf + "/attention/output/dense", h, h);
        String attention = layerNorm(s + "/attention/output/LayerNorm",
                b.node("Add", s + "/attention/output/Add", dense, x), w + ".attention.output.LayerNorm",
                tf + "/attention/output/LayerNorm");
        String inner = linear(s + "/intermediate/dense", attention, w + ".intermediate.dense",
                tf + "/intermediate/dense", h, shape.intermediate());
        inner = gelu(s + "/intermediate/intermediate_act_fn", inner);
        String out = linear(s + "/output/dense", inner, w + ".output.dense", tf + "/output/dense",
                shape.intermediate(), h);
        return layerNorm(s + "/output/LayerNorm", b.node("Add", s + "/output/Add", out, attention),
                w + ".output.LayerNorm", tf + "/output/LayerNorm");
    }

    /** cls/predictions: dense, GELU, LayerNorm, then the tied decoder (x · E^T) plus output_bias. */
    private String head(String x) throws ConversionException {
        String s = "/cls/predictions";
        int h = shape.hidden();
        String t = linear(s + "/transform/dense", x, "cls.predictions.transform.dense",
                "cls/predictions/transform/dense", h, h);
        t = gelu(s + "/transform/transform_act_fn", t);
        t = layerNorm(s + "/transform/LayerNorm", t, "cls.predictions.transform.LayerNorm",
                "cls/predictions/transform/LayerNorm");
        weight("cls.predictions.bias", "cls/predictions/output_bias", shape.vocab());
        String decoder = b.node("Transpose", s + "/decoder/Transpose", new AttributeProto[] {ints("perm", 1, 0)},
                "embeddings.word_embeddings.weight");
        String logits = b.node("MatMul", s + "/decoder/MatMul", t, decoder);
        return b.named("Add", s + "/decoder/Add", "logits", new AttributeProto[0], logits, "cls.predictions.bias");
    }

    /** y = x · kernel + bias, the TF kernel [in, out] being what the MatMul multiplies by. */
    private String linear(String scope, String x, String onnxName, String tfName, int in, int out)
            throws ConversionException {
        weight(onnxName + ".kernel", tfName + "/kernel", in, out);
        weight(onnxName + ".bias", tfName + "/bias", out);
        String mm = b.node("MatMul", scope + "/MatMul", x, onnxName + ".kernel");
        return b.node("Add", scope + "/Add", onnxName + ".bias", mm);
    }

    /** HuggingFace's decomposed LayerNorm over the last axis: (x - mean) / sqrt(var + eps) * gamma + beta. */
    private String layerNorm(String s, String x, String onnxName, String tfName) throws ConversionException {
        weight(onnxName + ".weight", tfName + "/gamma", shape.hidden());
        weight(onnxName + ".bias", tfName + "/beta", shape.hidden());
        AttributeProto[] last = {ints("axes", -1)};
        String mean = b.node("ReduceMean", s + "/ReduceMean", last, x);
        String centred = b.node("Sub", s + "/Sub", x, mean);
        String square = b.node("Pow", s + "/Pow", centred, b.scalar(s, 2f));
        String variance = b.node("ReduceMean", s + "/ReduceMean_1", last, square);
        String std = b.node("Sqrt", s + "/Sqrt", b.node("Add", s + "/Add", variance, b.scalar(s, LAYER_NORM_EPS)));
        String normed = b.node("Div", s + "/Div", centred, std);
        return b.node("Add", s + "/Add_1", b.node("Mul", s + "/Mul", normed, onnxName + ".weight"),
                onnxName + ".bias");
    }

    /** The TF BERT's gelu: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). */
    private String gelu(String s, String x) {
        String cube = b.node("Pow", s + "/Pow", x, b.scalar(s, 3f));
        String inner = b.node("Add", s + "/Add", x, b.node("Mul", s + "/Mul", b.scalar(s, 0.044715f), cube));
        String tanh = b.node("Tanh", s + "/Tanh",
                b.node("Mul", s + "/Mul_1", b.scalar(s, (float) Math.sqrt(2 / Math.PI)), inner));
        String cdf = b.node("Mul", s + "/Mul_2", b.scalar(s, 0.5f), b.node("Add", s + "/Add_1", b.scalar(s, 1f), tanh));
        return b.node("Mul", s + "/Mul_3", x, cdf);
    }

    private void weight(String onnxName, String tfName, long... dims) throws ConversionException {
        TensorBundle.Entry e = bundle.floatEntry(TF + tfName, dims);
        b.initializer(onnxName, dims, bundle.bytes(e));
    }
}
