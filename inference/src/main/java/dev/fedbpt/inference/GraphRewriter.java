package dev.fedbpt.inference;

import static dev.fedbpt.inference.RewrittenGraph.ATTENTION_MASK;
import static dev.fedbpt.inference.RewrittenGraph.INPUTS_EMBEDS;
import static dev.fedbpt.inference.RewrittenGraph.INPUT_IDS;
import static dev.fedbpt.inference.RewrittenGraph.PROMPT_ADD;
import static dev.fedbpt.inference.RewrittenGraph.TOKEN_TYPE_IDS;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.OperatorSetIdProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Rewrites a BERT-family ONNX graph in memory so that it takes {@code inputs_embeds} instead of {@code input_ids}.
 *
 * <p>Expected shape of the original graph: inputs {@code input_ids}, {@code attention_mask} and optionally
 * {@code token_type_ids} (int64 [batch, seq]); {@code input_ids} is read by exactly one {@code Gather} whose data is a
 * float initializer [vocab, hidden] (the word embeddings), and otherwise only by {@code Shape} nodes (position ids).
 * {@code token_type_ids}, if present, is read only by one {@code Gather} on a float initializer.
 *
 * <p>The rewrite: the word-embedding Gather is removed and its output renamed to the new graph input
 * {@code inputs_embeds}; each {@code Shape(input_ids)} becomes {@code Slice(Shape(inputs_embeds), 0, 2)} so it still
 * yields [batch, seq]; the token-type Gather becomes a constant [1, 1, hidden] holding row 0 (all rows use type 0, and
 * the broadcast Add gives the same values); the word-embedding initializer is cut out (unless some other node still
 * uses it, e.g. a tied decoder) and returned as an {@link EmbeddingTable}.
 *
 * <p>For {@link PromptSpec.Injection#ADD_AFTER_LAYERNORM}, {@link #rewrite(ModelProto, String, PromptSpec.Injection)}
 * then adds a second float input {@code prompt_add} [batch, seq, hidden] to the embedding layer's output, the value
 * the first encoder layer reads: after the embedding LayerNorm (see {@link #addToEmbeddingOutput}).
 */
final class GraphRewriter {
    private static final Pattern LAYER_INDEX =
            Pattern.compile("(?:^|[./_])(?:layer|layers|h|block|blocks)[./_](\\d+)(?:[./_]|$)");

    private GraphRewriter() {
    }

    static RewrittenGraph rewrite(ModelProto model, String name) throws ModelLoadException {
        GraphProto graph = model.getGraph();
        Map<String, TensorProto> initializers = new HashMap<>();
        for (TensorProto t : graph.getInitializerList()) initializers.put(t.getName(), t);

        List<String> realInputs = new ArrayList<>();
        for (ValueInfoProto in : graph.getInputList()) {
            if (!initializers.containsKey(in.getName())) realInputs.add(in.getName());
        }
        if (!realInputs.contains(INPUT_IDS)) {
            throw refuse(name, "it has no graph input 'input_ids' (inputs: " + realInputs + ")");
        }
        if (!realInputs.contains(ATTENTION_MASK)) {
            throw refuse(name, "it has no graph input 'attention_mask' (inputs: " + realInputs + ")");
        }
        for (String in : realInputs) {
            if (!in.equals(INPUT_IDS) && !in.equals(ATTENTION_MASK) && !in.equals(TOKEN_TYPE_IDS)) {
                throw refuse(name, "it has an unexpected graph input '" + in + "' (inputs: " + realInputs + ")");
            }
        }
        if (graph.getOutputCount() == 0) throw refuse(name, "it has no graph output");

        NodeProto wordGather = wordGather(graph, initializers, name);
        TensorProto wordTable = initializers.get(wordGather.getInput(0));
        int vocab = (int) wordTable.getDims(0);
        int hidden = (int) wordTable.getDims(1);
        float[] wordWeights = floats(wordTable, name);
        String embedOut = wordGather.getOutput(0);

        // --- token_type_ids
        NodeProto typeGather = null;
        TensorProto typeConstant = null;
        if (realInputs.contains(TOKEN_TYPE_IDS)) {
            List<NodeProto> typeConsumers = consumers(graph, TOKEN_TYPE_IDS);
            if (!typeConsumers.isEmpty()) {
                NodeProto g = typeConsumers.get(0);
                TensorProto table = g.getInputCount() >= 2 ? initializers.get(g.getInput(0)) : null;
                if (typeConsumers.size() != 1 || !g.getOpType().equals("Gather") || table == null
                        || table.getDimsCount() != 2 || table.getDims(1) != hidden || gatherAxis(g) != 0
                        || table.getDataType() != TensorProto.DataType.FLOAT_VALUE) {
                    throw refuse(name, "token_type_ids is not read by exactly one token-type embedding Gather "
                            + "(consumers: " + describe(typeConsumers) + ")");
                }
                typeGather = g;
                float[] row0 = new float[hidden];
                System.arraycopy(floats(table, name), 0, row0, 0, hidden);
                typeConstant = floatTensor(g.getOutput(0), new long[] {1, 1, hidden}, row0);
            }
        }

        // --- build the new graph
        int opset = defaultOpset(model);
        GraphProto.Builder g = graph.toBuilder();
        g.clearNode();
        int shapeCount = 0;
        List<TensorProto> extraInitializers = new ArrayList<>();
        if (typeConstant != null) extraInitializers.add(typeConstant);
        for (NodeProto n : graph.getNodeList()) {
            if (n == wordGather || n == typeGather) continue;
            if (n.getOpType().equals("Shape") && n.getInput(0).equals(INPUT_IDS)) {
                String full = "fedbpt/shape_" + shapeCount + "/full";
                g.addNode(NodeProto.newBuilder().setOpType("Shape").setName("fedbpt/Shape_" + shapeCount)
                        .addInput(INPUTS_EMBEDS).addOutput(full));
                g.addNode(sliceFirstTwo(full, n.getOutput(0), "fedbpt/shape_" + shapeCount, opset, extraInitializers));
                shapeCount++;
                continue;
            }
            NodeProto.Builder b = n.toBuilder();
            for (int i = 0; i < b.getInputCount(); i++) {
                if (b.getInput(i).equals(embedOut)) b.setInput(i, INPUTS_EMBEDS);
            }
            g.addNode(b);
        }
        // inputs: drop input_ids / token_type_ids, add inputs_embeds first
        ValueInfoProto idsInfo = null;
        List<ValueInfoProto> keptInputs = new ArrayList<>();
        for (ValueInfoProto in : graph.getInputList()) {
            if (in.getName().equals(INPUT_IDS)) idsInfo = in;
            else if (!in.getName().equals(TOKEN_TYPE_IDS)) keptInputs.add(in);
        }
        g.clearInput();
        g.addInput(embedsInfo(idsInfo, hidden));
        g.addAllInput(keptInputs);
        // value_info: drop entries for removed values
        g.clearValueInfo();
        for (ValueInfoProto v : graph.getValueInfoList()) {
            if (!v.getName().equals(embedOut) && (typeGather == null || !v.getName().equals(typeGather.getOutput(0)))) {
                g.addValueInfo(v);
            }
        }
        // initializers: drop the word table (and the type table) if nothing reads them any more
        Set<String> stillRead = new HashSet<>();
        for (NodeProto n : g.getNodeList()) stillRead.addAll(n.getInputList());
        g.clearInitializer();
        for (TensorProto t : graph.getInitializerList()) {
            if (stillRead.contains(t.getName())) g.addInitializer(t);
        }
        g.addAllInitializer(extraInitializers);
        // graph inputs of old IR versions also list initializers; drop the ones removed
        List<ValueInfoProto> inputs = new ArrayList<>(g.getInputList());
        g.clearInput();
        for (ValueInfoProto in : inputs) {
            if (!initializers.containsKey(in.getName()) || stillRead.contains(in.getName())) g.addInput(in);
        }

        ModelProto rewritten = model.toBuilder().setGraph(g).build();
        List<String> originalInputs = List.copyOf(realInputs);
        return new RewrittenGraph(rewritten, new EmbeddingTable(wordWeights, vocab, hidden),
                graph.getOutput(0).getName(), originalInputs, maxPositions(graph, initializers, hidden),
                layerCount(graph), typeGather != null);
    }

    /**
     * {@link #rewrite(ModelProto, String)}, and for {@link PromptSpec.Injection#ADD_AFTER_LAYERNORM} the input
     * {@code prompt_add} added after the embedding LayerNorm ({@link #addToEmbeddingOutput}); {@code PREPEND} returns
     * the plain rewrite unchanged.
     */
    static RewrittenGraph rewrite(ModelProto model, String name, PromptSpec.Injection injection)
            throws ModelLoadException {
        RewrittenGraph plain = rewrite(model, name);
        if (injection == PromptSpec.Injection.PREPEND) return plain;
        return new RewrittenGraph(addToEmbeddingOutput(plain.model(), name), plain.embeddings(), plain.outputName(),
                plain.originalInputs(), plain.maxPositions(), plain.layerCount(), plain.tokenTypeFolded());
    }

    /**
     * Adds the graph input {@code prompt_add} (float [batch, seq, hidden], the shape of {@code inputs_embeds}) to the
     * embedding layer's output E of a graph that {@link #rewrite(ModelProto, String)} produced: a node
     * {@code Add(E, prompt_add)} right after E's producer, and every node that read E reads the sum instead.
     *
     * <p>E is found by data flow: following the values computed from {@code inputs_embeds} (not through
     * {@code Shape}, which reads only the shape) in the graph's topological node order, E is the one the first
     * {@code MatMul} / {@code Gemm} reads (the first encoder layer's query / key / value projection); everything
     * before it is elementwise embedding arithmetic (token type and position Adds, the LayerNorm). E must come from
     * the embedding LayerNorm: a {@code LayerNormalization} node (opset 17 exports), or the final {@code Add} of its
     * decomposed form (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add: the opset-11 exports of
     * all-MiniLM-L6-v2 and bge-small-en-v1.5). With {@code prompt_add} = 0 the graph computes exactly what it computed
     * before (x + 0 = x).
     *
     * @throws ModelLoadException if no MatMul reads values computed from inputs_embeds, no LayerNorm lies between
     *                            them, or E is also a graph output
     */
    static ModelProto addToEmbeddingOutput(ModelProto model, String name) throws ModelLoadException {
        GraphProto graph = model.getGraph();
        Set<String> fromEmbeds = new HashSet<>(List.of(INPUTS_EMBEDS));
        Map<String, NodeProto> producers = new HashMap<>();
        boolean normalised = false;
        String embeddingOut = null;
        for (NodeProto n : graph.getNodeList()) {
            String read = null;
            for (String in : n.getInputList()) {
                if (fromEmbeds.contains(in)) {
                    read = in;
                    break;
                }
            }
            if (read == null || n.getOpType().equals("Shape") || n.getOpType().equals("Size")) continue;
            if (n.getOpType().equals("MatMul") || n.getOpType().equals("Gemm")) {
                embeddingOut = read;
                break;
            }
            if (n.getOpType().equals("LayerNormalization") || n.getOpType().equals("ReduceMean")) normalised = true;
            for (String out : n.getOutputList()) {
                fromEmbeds.add(out);
                producers.put(out, n);
            }
        }
        if (embeddingOut == null) {
            throw refuse(name, "no MatMul reads the embeddings computed from inputs_embeds, so the embedding layer's "
                    + "output for prompt_add was not found");
        }
        NodeProto producer = producers.get(embeddingOut);
        boolean layerNorm = producer != null && producer.getOpType().equals("LayerNormalization")
                && producer.getOutput(0).equals(embeddingOut);
        boolean decomposed = producer != null && producer.getOpType().equals("Add") && normalised;
        if (!layerNorm && !decomposed) {
            throw refuse(name, "the value the first MatMul reads ('" + embeddingOut + "') is not the output of an "
                    + "embedding LayerNorm (produced by " + (producer == null ? "no node" : producer.getOpType() + " '"
                    + producer.getName() + "'") + "), so prompt_add has no place after it");
        }
        for (ValueInfoProto out : graph.getOutputList()) {
            if (out.getName().equals(embeddingOut)) {
                throw refuse(name, "the embedding output '" + embeddingOut + "' is also a graph output");
            }
        }
        String sum = "fedbpt/prompt_add/sum";
        GraphProto.Builder g = graph.toBuilder();
        g.clearNode();
        for (NodeProto n : graph.getNodeList()) {
            NodeProto.Builder b = n.toBuilder();
            for (int i = 0; i < b.getInputCount(); i++) {
                if (b.getInput(i).equals(embeddingOut)) b.setInput(i, sum);
            }
            g.addNode(b);
            if (n == producer) {
                g.addNode(NodeProto.newBuilder().setOpType("Add").setName("fedbpt/prompt_add/Add")
                        .addInput(embeddingOut).addInput(PROMPT_ADD).addOutput(sum));
            }
        }
        ValueInfoProto embedsInfo = null;
        for (ValueInfoProto in : graph.getInputList()) {
            if (in.getName().equals(INPUTS_EMBEDS)) embedsInfo = in;
        }
        if (embedsInfo == null) throw refuse(name, "the rewritten graph has no input inputs_embeds");
        g.addInput(embedsInfo.toBuilder().setName(PROMPT_ADD));
        return model.toBuilder().setGraph(g).build();
    }

    /**
     * Vocabulary, hidden size and positions exactly as {@link #rewrite} reads them (the shapes of the word- and
     * position-embedding initializers, found by the same code), without decoding a tensor or building a graph: what
     * a tokenizer needs to know of its model.
     */
    static Dimensions dimensions(ModelProto model, String name) throws ModelLoadException {
        GraphProto graph = model.getGraph();
        Map<String, TensorProto> initializers = new HashMap<>();
        for (TensorProto t : graph.getInitializerList()) initializers.put(t.getName(), t);
        TensorProto wordTable = initializers.get(wordGather(graph, initializers, name).getInput(0));
        int hidden = (int) wordTable.getDims(1);
        return new Dimensions((int) wordTable.getDims(0), hidden, maxPositions(graph, initializers, hidden));
    }

    /** The word-embedding matrix [vocab, hidden] the graph's input_ids Gather reads, row-major. */
    static float[] wordEmbeddings(ModelProto model, String name) throws ModelLoadException {
        GraphProto graph = model.getGraph();
        Map<String, TensorProto> initializers = new HashMap<>();
        for (TensorProto t : graph.getInitializerList()) initializers.put(t.getName(), t);
        return floats(initializers.get(wordGather(graph, initializers, name).getInput(0)), name);
    }

    /** @param maxPositions rows of the position-embedding table if one was found, else 512 */
    record Dimensions(int vocabularySize, int hiddenSize, int maxPositions) {}

    /** The one Gather that reads input_ids, checked to look up a float [vocab, hidden] initializer on axis 0. */
    private static NodeProto wordGather(GraphProto graph, Map<String, TensorProto> initializers, String name)
            throws ModelLoadException {
        List<NodeProto> idConsumers = consumers(graph, INPUT_IDS);
        List<NodeProto> gathers = new ArrayList<>();
        List<NodeProto> others = new ArrayList<>();
        for (NodeProto n : idConsumers) {
            if (n.getOpType().equals("Gather") && n.getInputCount() >= 2 && n.getInput(1).equals(INPUT_IDS)) {
                gathers.add(n);
            } else if (!n.getOpType().equals("Shape")) {
                others.add(n);
            }
        }
        if (gathers.isEmpty()) {
            throw refuse(name, "no embedding Gather reads input_ids (input_ids is consumed by "
                    + describe(idConsumers) + ")");
        }
        if (gathers.size() > 1 || !others.isEmpty()) {
            throw refuse(name, "input_ids has consumers other than one embedding Gather and the position-ids Shape: "
                    + describe(idConsumers));
        }
        NodeProto wordGather = gathers.get(0);
        TensorProto wordTable = initializers.get(wordGather.getInput(0));
        if (wordTable == null || wordTable.getDimsCount() != 2 || wordTable.getDataType() != TensorProto.DataType.FLOAT_VALUE) {
            throw refuse(name, "the Gather '" + wordGather.getName() + "' on input_ids does not read a float "
                    + "initializer [vocab, hidden] (data input '" + wordGather.getInput(0) + "')");
        }
        if (gatherAxis(wordGather) != 0) {
            throw refuse(name, "the embedding Gather '" + wordGather.getName() + "' uses axis " + gatherAxis(wordGather));
        }
        return wordGather;
    }

    private static ModelLoadException refuse(String name, String what) {
        return new ModelLoadException("cannot rewrite " + name + " to take inputs_embeds: " + what);
    }

    private static List<NodeProto> consumers(GraphProto graph, String value) {
        List<NodeProto> out = new ArrayList<>();
        for (NodeProto n : graph.getNodeList()) {
            if (n.getInputList().contains(value)) out.add(n);
        }
        return out;
    }

    private static String describe(List<NodeProto> nodes) {
        if (nodes.isEmpty()) return "no node";
        return nodes.stream().map(n -> n.getOpType() + " '" + n.getName() + "'").collect(Collectors.joining(", ", "[", "]"));
    }

    private static long gatherAxis(NodeProto n) {
        for (AttributeProto a : n.getAttributeList()) {
            if (a.getName().equals("axis")) return a.getI();
        }
        return 0;
    }

    private static int defaultOpset(ModelProto model) {
        for (OperatorSetIdProto o : model.getOpsetImportList()) {
            if (o.getDomain().isEmpty() || o.getDomain().equals("ai.onnx")) return (int) o.getVersion();
        }
        return 11;
    }

    /** Slice(x)[0:2] along axis 0, as inputs (opset >= 10) or attributes (older). */
    private static NodeProto sliceFirstTwo(String in, String out, String prefix, int opset, List<TensorProto> inits) {
        NodeProto.Builder b = NodeProto.newBuilder().setOpType("Slice").setName(prefix + "/Slice").addInput(in).addOutput(out);
        if (opset >= 10) {
            inits.add(longTensor(prefix + "/starts", 0));
            inits.add(longTensor(prefix + "/ends", 2));
            inits.add(longTensor(prefix + "/axes", 0));
            b.addInput(prefix + "/starts").addInput(prefix + "/ends").addInput(prefix + "/axes");
        } else {
            b.addAttribute(ints("starts", 0)).addAttribute(ints("ends", 2)).addAttribute(ints("axes", 0));
        }
        return b.build();
    }

    private static AttributeProto ints(String name, long v) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INTS).addInts(v).build();
    }

    /** An int64 vector initializer holding {@code values}. */
    static TensorProto longTensor(String name, long... values) {
        TensorProto.Builder b = TensorProto.newBuilder().setName(name).setDataType(TensorProto.DataType.INT64_VALUE)
                .addDims(values.length);
        for (long v : values) b.addInt64Data(v);
        return b.build();
    }

    static TensorProto floatTensor(String name, long[] dims, float[] values) {
        ByteBuffer buf = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        buf.asFloatBuffer().put(values);
        TensorProto.Builder b = TensorProto.newBuilder().setName(name).setDataType(TensorProto.DataType.FLOAT_VALUE)
                .setRawData(ByteString.copyFrom(buf.array()));
        for (long d : dims) b.addDims(d);
        return b.build();
    }

    private static ValueInfoProto embedsInfo(ValueInfoProto idsInfo, int hidden) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        List<TensorShapeProto.Dimension> dims = idsInfo.getType().getTensorType().getShape().getDimList();
        if (dims.size() == 2) {
            shape.addDim(dims.get(0)).addDim(dims.get(1));
        } else {
            shape.addDim(TensorShapeProto.Dimension.newBuilder().setDimParam("batch_size"))
                    .addDim(TensorShapeProto.Dimension.newBuilder().setDimParam("sequence_length"));
        }
        shape.addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(hidden));
        return ValueInfoProto.newBuilder().setName(INPUTS_EMBEDS)
                .setType(TypeProto.newBuilder().setTensorType(TypeProto.Tensor.newBuilder()
                        .setElemType(TensorProto.DataType.FLOAT_VALUE).setShape(shape)))
                .build();
    }

    static float[] floats(TensorProto t, String name) throws ModelLoadException {
        long n = 1;
        for (long d : t.getDimsList()) n *= d;
        if (n > Integer.MAX_VALUE) throw new ModelLoadException(name + ": tensor " + t.getName() + " is too large");
        float[] out = new float[(int) n];
        if (!t.getRawData().isEmpty()) {
            if (t.getRawData().size() != n * 4) {
                throw new ModelLoadException(name + ": tensor " + t.getName() + " has " + t.getRawData().size()
                        + " raw bytes, expected " + n * 4);
            }
            t.getRawData().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
        } else if (t.getFloatDataCount() == n) {
            for (int i = 0; i < n; i++) out[i] = t.getFloatData(i);
        } else {
            throw new ModelLoadException(name + ": tensor " + t.getName()
                    + " has no inline data (external data files are not supported)");
        }
        return out;
    }

    private static int maxPositions(GraphProto graph, Map<String, TensorProto> inits, int hidden) {
        for (NodeProto n : graph.getNodeList()) {
            if (!n.getOpType().equals("Gather") || n.getInputCount() < 2) continue;
            TensorProto t = inits.get(n.getInput(0));
            if (t != null && t.getDimsCount() == 2 && t.getDims(1) == hidden
                    && t.getName().toLowerCase().contains("position")) {
                return (int) t.getDims(0);
            }
        }
        return 512;
    }

    /** Distinct layer indices found in node and initializer names ("layer.3.", "layers_3/", "h.3."), or null. */
    static Integer layerCount(GraphProto graph) {
        Set<Integer> seen = new TreeSet<>();
        for (NodeProto n : graph.getNodeList()) collect(n.getName(), seen);
        for (TensorProto t : graph.getInitializerList()) collect(t.getName(), seen);
        return seen.isEmpty() ? null : seen.size();
    }

    private static void collect(String s, Set<Integer> seen) {
        Matcher m = LAYER_INDEX.matcher(s);
        while (m.find()) seen.add(Integer.parseInt(m.group(1)));
    }
}
