package dev.fedbpt.inference;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The weights and shape constants of a BERT-family ONNX export (HuggingFace's export: node names such as
 * {@code /encoder/layer.3/attention/self/query/MatMul}, biases and norms as named initializers), read so that another
 * backend can rebuild the same encoder. Linear weights are stored as the export multiplies them, [in, out] row-major:
 * {@code y = x·W + b}.
 *
 * <p>Everything the forward pass needs that is not a weight is read from the graph too: the number of attention heads
 * from the attention's scale constant (sqrt of the head size), the LayerNorm epsilon and the additive value that masks
 * padding. A graph that does not have these nodes is refused with the name of what is missing.
 */
public record EncoderWeights(String name, int vocabularySize, int hiddenSize, int heads, int intermediateSize,
                             int maxPositions, float layerNormEps, float maskValue, Activation activation,
                             float[] wordEmbeddings, float[] positionEmbeddings, float[] tokenTypeEmbedding,
                             Norm embeddingNorm, List<Layer> layers, MlmHead mlmHead) {

    /** The GELU of the feed-forward layers (and of the MLM head's transform), read off the graph's nodes. */
    public enum Activation {
        /** x · Φ(x) with erf, as HuggingFace's exports of PyTorch BERTs compute it. */
        GELU_ERF,
        /** 0.5 x (1 + tanh(sqrt(2/π) (x + 0.044715 x³))), as Google's TF BERT computes it. */
        GELU_TANH
    }

    /**
     * BERT's masked-LM head ({@code cls.predictions}): a dense layer, the activation and a LayerNorm (the encoder's
     * epsilon), then the decoder tied to the word embeddings, plus {@code outputBias} [vocabulary].
     */
    public record MlmHead(Linear transform, Norm norm, float[] outputBias) {
    }

    /** A LayerNorm's scale and shift. */
    public record Norm(float[] gamma, float[] beta) {
    }

    /** A linear map y = x·weight + bias, weight [in, out] row-major. */
    public record Linear(int in, int out, float[] weight, float[] bias) {
    }

    /** One transformer layer (post-norm BERT). */
    public record Layer(Linear query, Linear key, Linear value, Linear attentionOutput, Norm attentionNorm,
                        Linear intermediate, Linear output, Norm outputNorm) {
    }

    public EncoderWeights {
        layers = List.copyOf(layers);
    }

    /** Whether the export carries the masked-LM head (null {@link #mlmHead} otherwise). */
    public boolean hasMlmHead() {
        return mlmHead != null;
    }

    public int layerCount() {
        return layers.size();
    }

    /** Reads the export named by {@code source}. */
    public static EncoderWeights read(ModelSource source) throws ModelLoadException {
        String name = source.describe();
        return read(OnnxModelReader.parse(OnnxModelReader.readBytes(source), name), name);
    }

    /** The node that names encoder layer {@code l} in a HuggingFace BERT-family export. */
    private static String queryNode(int l) {
        return "/encoder/layer." + l + "/attention/self/query/MatMul";
    }

    /** Encoder layers of {@code graph}, counted as {@link #read} finds them (0 for another kind of graph). */
    static int layerCount(GraphProto graph) {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (NodeProto n : graph.getNodeList()) names.add(n.getName());
        int l = 0;
        while (names.contains(queryNode(l))) l++;
        return l;
    }

    static EncoderWeights read(ModelProto model, String name) throws ModelLoadException {
        GraphProto g = model.getGraph();
        Map<String, TensorProto> init = new HashMap<>();
        for (TensorProto t : g.getInitializerList()) init.put(t.getName(), t);
        Map<String, NodeProto> nodes = new HashMap<>();
        Map<String, NodeProto> producers = new HashMap<>();
        for (NodeProto n : g.getNodeList()) {
            nodes.put(n.getName(), n);
            for (String out : n.getOutputList()) producers.put(out, n);
        }
        Reader r = new Reader(name, init, nodes, producers);
        float[] words = r.tensor("embeddings.word_embeddings.weight");
        int hidden = r.dims("embeddings.word_embeddings.weight")[1];
        int vocab = words.length / hidden;
        float[] positions = r.tensor("embeddings.position_embeddings.weight");
        float[] types = r.tensor("embeddings.token_type_embeddings.weight");
        float[] type0 = new float[hidden];
        System.arraycopy(types, 0, type0, 0, hidden); // every row here is one segment: token type 0
        Norm embNorm = r.norm("embeddings.LayerNorm");
        List<Layer> layers = new ArrayList<>();
        for (int l = 0; nodes.containsKey(queryNode(l)); l++) {
            String p = "/encoder/layer." + l + "/";
            String q = "encoder.layer." + l + ".";
            layers.add(new Layer(
                    r.linear(p + "attention/self/query/MatMul", q + "attention.self.query.bias"),
                    r.linear(p + "attention/self/key/MatMul", q + "attention.self.key.bias"),
                    r.linear(p + "attention/self/value/MatMul", q + "attention.self.value.bias"),
                    r.linear(p + "attention/output/dense/MatMul", q + "attention.output.dense.bias"),
                    r.norm(q + "attention.output.LayerNorm"),
                    r.linear(p + "intermediate/dense/MatMul", q + "intermediate.dense.bias"),
                    r.linear(p + "output/dense/MatMul", q + "output.dense.bias"),
                    r.norm(q + "output.LayerNorm")));
        }
        if (layers.isEmpty()) {
            throw new ModelLoadException(name + " has no node /encoder/layer.0/attention/self/query/MatMul: not a "
                    + "BERT-family export this backend can rebuild");
        }
        double scale = r.constantInput("/encoder/layer.0/attention/self/Div", 1);
        int headSize = (int) Math.round(scale * scale);
        if (headSize <= 0 || hidden % headSize != 0 || Math.abs(Math.sqrt(headSize) - scale) > 1e-4) {
            throw new ModelLoadException(name + ": the attention scale " + scale + " is not sqrt of a head size "
                    + "dividing the hidden size " + hidden);
        }
        float eps = (float) r.constantInput("/embeddings/LayerNorm/Add", 1);
        float mask = (float) r.constantInput("/Mul", 1);
        Activation activation = nodes.containsKey("/encoder/layer.0/intermediate/intermediate_act_fn/Tanh")
                ? Activation.GELU_TANH : Activation.GELU_ERF;
        MlmHead head = null;
        if (init.containsKey("cls.predictions.bias")) {
            head = new MlmHead(r.linear("/cls/predictions/transform/dense/MatMul",
                    "cls.predictions.transform.dense.bias"), r.norm("cls.predictions.transform.LayerNorm"),
                    r.tensor("cls.predictions.bias"));
            if (head.outputBias().length != vocab || head.transform().in() != hidden) {
                throw new ModelLoadException(name + ": the masked-LM head's shapes (" + head.transform().in()
                        + " in, " + head.outputBias().length + " output biases) do not match hidden " + hidden
                        + " and vocabulary " + vocab);
            }
        }
        return new EncoderWeights(name, vocab, hidden, hidden / headSize, layers.get(0).intermediate().out(),
                positions.length / hidden, eps, mask, activation, words, positions, type0, embNorm, layers, head);
    }

    private record Reader(String name, Map<String, TensorProto> init, Map<String, NodeProto> nodes,
                          Map<String, NodeProto> producers) {

        TensorProto initializer(String key) throws ModelLoadException {
            TensorProto t = init.get(key);
            if (t == null) throw new ModelLoadException(name + " has no initializer " + key);
            return t;
        }

        float[] tensor(String key) throws ModelLoadException {
            return GraphRewriter.floats(initializer(key), name);
        }

        int[] dims(String key) throws ModelLoadException {
            TensorProto t = initializer(key);
            int[] d = new int[t.getDimsCount()];
            for (int i = 0; i < d.length; i++) d[i] = Math.toIntExact(t.getDims(i));
            return d;
        }

        Norm norm(String prefix) throws ModelLoadException {
            return new Norm(tensor(prefix + ".weight"), tensor(prefix + ".bias"));
        }

        /** The MatMul node's weight (its initializer input) and the bias initializer. */
        Linear linear(String matMul, String bias) throws ModelLoadException {
            NodeProto n = nodes.get(matMul);
            if (n == null) throw new ModelLoadException(name + " has no node " + matMul);
            for (String in : n.getInputList()) {
                if (init.containsKey(in)) {
                    int[] d = dims(in);
                    if (d.length != 2) throw new ModelLoadException(name + ": weight of " + matMul + " is not 2-D");
                    float[] b = tensor(bias);
                    if (b.length != d[1]) {
                        throw new ModelLoadException(name + ": bias " + bias + " has " + b.length + " values for "
                                + d[1] + " outputs");
                    }
                    return new Linear(d[0], d[1], tensor(in), b);
                }
            }
            throw new ModelLoadException(name + ": node " + matMul + " has no weight initializer");
        }

        /** The scalar a Constant node (or a scalar initializer) feeds into input {@code index} of node {@code node}. */
        double constantInput(String node, int index) throws ModelLoadException {
            NodeProto n = nodes.get(node);
            if (n == null || n.getInputCount() <= index) throw new ModelLoadException(name + " has no node " + node);
            String in = n.getInput(index);
            TensorProto t = init.get(in);
            if (t == null) {
                NodeProto c = producers.get(in);
                if (c == null || !c.getOpType().equals("Constant")) {
                    throw new ModelLoadException(name + ": input " + index + " of " + node + " is not a constant");
                }
                for (AttributeProto a : c.getAttributeList()) {
                    if (a.getName().equals("value")) t = a.getT();
                }
                if (t == null) throw new ModelLoadException(name + ": constant " + c.getName() + " has no value");
            }
            float[] v = GraphRewriter.floats(t, name);
            if (v.length != 1) throw new ModelLoadException(name + ": input " + index + " of " + node + " is not a scalar");
            return v[0];
        }
    }
}
