package dev.fedbpt.inference;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.onnx.proto.OnnxMl.ModelProto;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A frozen BERT-family model used as a black box: rows of token ids, optionally with a continuous prompt A·z inserted
 * after [CLS], go in; class scores come out. See {@link GraphRewriter} for the graph rewrite, {@link RandomProjection}
 * for A, {@link SimilarityHead} and {@link MaskedLmHead} for the scores, {@link PromptSpec.Injection} for the two ways
 * the prompt enters the model (prepended input embeddings, or placeholder tokens with A·z added after the embedding
 * LayerNorm).
 *
 * <p>Thread-safety: {@link #score} and {@link #encode} are safe to call from several threads; calls to {@link #score}
 * are serialised (one forward at a time, sharing the input buffers), so use one instance per core group for parallelism.
 */
public final class PromptModel implements ScoringModel {
    private static final Logger LOG = LoggerFactory.getLogger(PromptModel.class);
    private static final String[] PROBE_TEXTS = {
        "The quick brown fox jumps over the lazy dog.",
        "It was great.",
        "Federated black-box prompt tuning checks that the rewritten graph matches the original one.",
    };

    private final TextTokenizer tokenizer;
    /** Encodes for this model; members that only tokenise load the same thing without a session. */
    private final PromptTokenizer tokens;
    private OnnxSession session; // replaced once, at load, by the graph whose head MaskedLmGather cut
    private boolean closed; // guarded by this, as score is
    private final EmbeddingTable embeddings;
    private final RandomProjection projection;
    private final PromptSpec promptSpec;
    private final BatchEncoder encoder;
    private final int maxPositions;
    private final Integer layerCount;
    private ClassHead head;
    private double rewriteMaxAbsDiff;
    /** Max abs difference of the cut masked-LM head from the full one on the probe rows; NaN when not cut. */
    private double headMaxAbsDiff = Double.NaN;
    /** Whether the session's linear layers compute in int8 ({@link #quantize}). */
    private boolean int8;
    private ForwardFlops forwardFlops;
    private static final int CALIBRATION_BATCH = 8;
    private float[] outputBuffer = new float[0];
    /** The last {@value #EXPANSION_CACHE_SIZE} distinct z and their expansions A·z, by content, least recently used out. */
    private final Map<ZKey, float[]> expansionCache = new LinkedHashMap<>(32, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ZKey, float[]> eldest) {
            return size() > EXPANSION_CACHE_SIZE;
        }
    };
    private static final int EXPANSION_CACHE_SIZE = 16;

    private PromptModel(TextTokenizer tokenizer, OnnxSession session, RewrittenGraph graph, PromptSpec promptSpec,
                        int maxRowTokens) throws ModelLoadException {
        this.tokenizer = tokenizer;
        this.session = session;
        this.embeddings = graph.embeddings();
        this.tokens = new PromptTokenizer(tokenizer, embeddings.vocabularySize(), maxRowTokens);
        this.promptSpec = promptSpec;
        this.encoder = promptSpec.injection() == PromptSpec.Injection.PREPEND ? new BatchEncoder(embeddings)
                : new BatchEncoder(embeddings, placeholderIds(promptSpec, embeddings.vocabularySize(),
                        tokenizer.specialTokenIds()));
        this.maxPositions = graph.maxPositions();
        this.layerCount = graph.layerCount();
        this.projection = promptSpec.promptLength() == 0 || promptSpec.dimension() == 0 ? null
                : new RandomProjection(promptSpec.promptLength(), embeddings.hiddenSize(), promptSpec.dimension(),
                        promptSpec.projectionSeed(), embeddings.standardDeviation());
    }

    /**
     * Refuses, without loading a model, a device {@link #load} would certainly refuse: a CUDA device where this
     * build of ONNX Runtime has no CUDA provider.
     */
    public static void checkDevice(ModelOptions options) throws DeviceUnavailableException {
        if (options.cudaDevice().isPresent()) {
            OnnxSession.checkCuda(options.cudaDevice().getAsInt());
        }
    }

    /**
     * Loads the export, rewrites it to take {@code inputs_embeds}, checks the rewrite on a probe batch against the
     * original graph, and builds the head.
     *
     * @throws ModelLoadException if the file is missing or not an ONNX export, the graph does not have the expected
     *                            shape, the rewrite differs from the original by more than the tolerance, or the head
     *                            does not fit the model (output kind, label words)
     */
    public static PromptModel load(ModelSource source, PromptSpec prompt, HeadSpec headSpec, ModelOptions options)
            throws ModelLoadException {
        String name = source.describe();
        long t0 = System.nanoTime();
        byte[] bytes = OnnxModelReader.readBytes(source);
        ModelProto original = OnnxModelReader.parse(bytes, name);
        RewrittenGraph graph = GraphRewriter.rewrite(original, name, prompt.injection());
        original = null; // the proto is no longer needed; the raw bytes feed the verification session
        int maxRowTokens = PromptTokenizer.maxRowTokens(graph.maxPositions(), prompt, name);
        TextTokenizer tokenizer = TextTokenizer.load(source);
        OnnxSession session = null;
        PromptModel model = null;
        try {
            session = OnnxSession.load(graph.model().toByteArray(), "fedbpt-rewritten", options);
            model = new PromptModel(tokenizer, session, graph, prompt, maxRowTokens);
            model.rewriteMaxAbsDiff = model.verifyAgainst(bytes, graph, options, name);
            bytes = null;
            if (!(model.rewriteMaxAbsDiff <= options.rewriteTolerance())) {
                throw new ModelLoadException(String.format(
                        "rewritten graph of %s does not reproduce the original: max abs diff %.3g > tolerance %.1g",
                        name, model.rewriteMaxAbsDiff, options.rewriteTolerance()));
            }
            model.head = model.buildHead(headSpec.forModel(source), name);
            ModelProto running = graph.model();
            if (options.maskedLmGather() && model.head instanceof MaskedLmHead full) {
                running = model.gatherHead(running, full, options, name);
            }
            model.forwardFlops = ForwardFlops.of(running, model.layerCount == null ? 0 : model.layerCount,
                    model.hiddenSize());
            if (options.int8() != null) {
                model.quantize(running, options.int8(), options, name);
            }
            LOG.info("loaded {}: vocab {}, hidden {}, layers {}, rewrite max abs diff {}, {} ms", name,
                    model.vocabularySize(), model.hiddenSize(), model.layerCount, model.rewriteMaxAbsDiff,
                    (System.nanoTime() - t0) / 1_000_000);
            return model;
        } catch (ModelLoadException | RuntimeException e) {
            if (model != null) model.close();
            else {
                if (session != null) session.close();
                tokenizer.close();
            }
            if (e instanceof RuntimeException re) {
                throw new ModelLoadException("cannot load " + name + ": " + re, re);
            }
            throw e;
        }
    }

    /**
     * Runs the probe texts through the original and the rewritten graph; returns the max abs output difference. With
     * {@link PromptSpec.Injection#ADD_AFTER_LAYERNORM} the first and the last probe carry a zero prompt: the
     * rewritten graph gets their placeholder tokens and prompt_add = 0, the original the rows with the placeholder
     * ids written in after [CLS].
     */
    private double verifyAgainst(byte[] originalBytes, RewrittenGraph graph, ModelOptions options, String name)
            throws ModelLoadException {
        List<int[]> rows = new ArrayList<>();
        List<float[]> prompts = new ArrayList<>();
        boolean add = promptSpec.injection() == PromptSpec.Injection.ADD_AFTER_LAYERNORM && projection != null;
        for (String t : PROBE_TEXTS) {
            rows.add(encode(t));
            prompts.add(add && prompts.size() != 1 ? new float[projection.rows()] : null);
        }
        EncodedBatch batch = encoder.encode(rows, prompts);
        int[] placeholders = promptSpec.placeholderIds();
        float[] out0 = forward(batch);
        float[] rewritten = Arrays.copyOf(out0, batch.batch() * batch.seq() * lastWidth);
        int n = batch.batch() * batch.seq();
        try (OnnxSession originalSession = OnnxSession.load(originalBytes, "fedbpt-original", options);
             NDManager manager = originalSession.newCallManager()) {
            long[] ids = new long[n];
            long[] mask = new long[n];
            for (int r = 0; r < batch.batch(); r++) {
                int[] row = rows.get(r);
                for (int i = 0; i < row.length; i++) {
                    ids[r * batch.seq() + batch.positionOf(r, i)] = row[i];
                }
                for (int k = 0; k < batch.promptLengths()[r]; k++) ids[r * batch.seq() + 1 + k] = placeholders[k];
                for (int i = 0; i < batch.lengths()[r]; i++) mask[r * batch.seq() + i] = 1;
            }
            Shape shape = new Shape(batch.batch(), batch.seq());
            NDList inputs = new NDList();
            for (String input : graph.originalInputs()) {
                long[] data = switch (input) {
                    case RewrittenGraph.INPUT_IDS -> ids;
                    case RewrittenGraph.ATTENTION_MASK -> mask;
                    default -> new long[n];
                };
                NDArray a = manager.create(data, shape);
                a.setName(input);
                inputs.add(a);
            }
            float[] reference = originalSession.forward(inputs).get(0).toFloatArray();
            if (reference.length != rewritten.length) {
                throw new ModelLoadException("rewritten graph of " + name + " gives " + rewritten.length
                        + " output values where the original gives " + reference.length);
            }
            // compare the positions that are not padding (padding outputs are never read)
            int width = reference.length / n;
            double max = 0;
            for (int p = 0; p < n; p++) {
                if (mask[p] == 0) continue;
                for (int h = p * width; h < (p + 1) * width; h++) {
                    double d = Math.abs((double) reference[h] - rewritten[h]);
                    if (Double.isNaN(d)) return Double.NaN;
                    max = Math.max(max, d);
                }
            }
            return max;
        }
    }

    private ClassHead buildHead(HeadSpec spec, String name) throws ModelLoadException {
        List<int[]> probe = List.of(encode("a"));
        List<float[]> none = new ArrayList<>();
        none.add(null);
        EncodedBatch b = encoder.encode(probe, none);
        forward(b);
        int width = lastWidth;
        if (spec instanceof HeadSpec.Similarity s) {
            if (width != hiddenSize()) {
                throw new ModelLoadException("the similarity head needs hidden states [batch, seq, " + hiddenSize()
                        + "] but the output of " + name + " has last dimension " + width
                        + " (a masked-LM export? use HeadSpec.MaskedLm)");
            }
            List<int[]> rows = new ArrayList<>();
            List<float[]> prompts = new ArrayList<>();
            for (String d : s.labelDescriptions()) {
                rows.add(encode(d));
                prompts.add(null);
            }
            EncodedBatch batch = encoder.encode(rows, prompts);
            float[] out = forward(batch);
            double[][] labels = new double[rows.size()][];
            int separator = probe.get(0)[probe.get(0).length - 1];
            for (int c = 0; c < labels.length; c++) {
                labels[c] = SimilarityHead.pool(out, width, batch, c, separator, s.pooling(), 0);
            }
            return new SimilarityHead(labels, s.temperature(), separator, s.pooling(), s.poolsTokenPrompt());
        }
        HeadSpec.MaskedLm m = (HeadSpec.MaskedLm) spec;
        if (width != vocabularySize()) {
            throw new ModelLoadException("the masked-LM head needs vocabulary logits [batch, seq, " + vocabularySize()
                    + "] but the output of " + name + " has last dimension " + width
                    + " (an encoder-only export? use HeadSpec.Similarity)");
        }
        return MaskedLmHead.of(tokenizer, m, name);
    }

    /**
     * Replaces the session by one of the graph {@link MaskedLmGather} cuts to the label words at [MASK], after
     * checking on probe rows that it scores as the full head does; keeps the full head, saying why, when the graph's
     * head has another shape or the scores differ by more than the rewrite tolerance.
     */
    private ModelProto gatherHead(ModelProto full, MaskedLmHead head, ModelOptions options, String name)
            throws ModelLoadException {
        String[] why = new String[1];
        ModelProto cut = MaskedLmGather.cut(full, head.labelTokenIds(), why);
        if (cut == null) {
            LOG.info("{}: the masked-LM head reads full vocabulary logits ({})", name, why[0]);
            return full;
        }
        List<int[]> rows = new ArrayList<>();
        List<float[]> prompts = new ArrayList<>();
        for (String t : PROBE_TEXTS) {
            int[] ids = encode(t);
            int[] masked = Arrays.copyOf(ids, ids.length + 1); // [MASK] before the final [SEP]
            masked[ids.length - 1] = tokenizer.maskTokenId();
            masked[ids.length] = ids[ids.length - 1];
            rows.add(masked);
            prompts.add(null);
        }
        EncodedBatch batch = encoder.encode(rows, prompts);
        float[][] expected = head.scores(forward(batch), lastWidth, batch);
        OnnxSession gatheredSession = OnnxSession.load(cut.toByteArray(), "fedbpt-gathered-head", options);
        OnnxSession fullSession = session;
        session = gatheredSession;
        this.head = head.gathered();
        batch = encoder.encode(rows, prompts);
        float[][] actual = this.head.scores(forward(batch), lastWidth, batch);
        double max = 0;
        for (int r = 0; r < expected.length; r++) {
            for (int c = 0; c < expected[r].length; c++) max = Math.max(max, Math.abs(expected[r][c] - actual[r][c]));
        }
        if (!(max <= options.rewriteTolerance())) {
            LOG.warn("{}: the cut masked-LM head differs from the full one by {} on the probe rows; reading full "
                    + "vocabulary logits", name, max);
            session = fullSession;
            this.head = head;
            gatheredSession.close();
            return full;
        }
        fullSession.close();
        headMaxAbsDiff = max;
        return cut;
    }

    /**
     * Replaces the session by one of {@code fp32} with its linear layers in int8 ({@link Int8Quantizer}), their
     * activation scales read from the calibration rows, scored in batches of {@value #CALIBRATION_BATCH} (every
     * other row with a prompt A.z, z standard normal from the calibration seed).
     */
    private void quantize(ModelProto fp32, ModelOptions.Int8 int8, ModelOptions options, String name)
            throws ModelLoadException {
        long t0 = System.nanoTime();
        List<String> activations = Int8Quantizer.activations(fp32);
        Map<String, float[]> ranges = new LinkedHashMap<>();
        GaussianStream gaussian = new GaussianStream(int8.seed());
        try (OnnxSession calibration = OnnxSession.load(Int8Quantizer.exposing(fp32, activations).toByteArray(),
                "fedbpt-calibration", options)) {
            for (int from = 0; from < int8.rows().size(); from += CALIBRATION_BATCH) {
                List<int[]> rows = int8.rows().subList(from, Math.min(int8.rows().size(), from + CALIBRATION_BATCH));
                List<float[]> prompts = new ArrayList<>();
                for (int r = 0; r < rows.size(); r++) {
                    boolean prompted = projection != null && (from + r) % 2 == 1;
                    prompts.add(prompted ? projection.expand(new double[][]{standardNormal(gaussian)})[0] : null);
                }
                EncodedBatch batch = encoder.encode(rows, prompts);
                try (NDManager manager = calibration.newCallManager()) {
                    NDList outputs = calibration.forward(inputs(manager, batch));
                    try {
                        for (int a = 0; a < activations.size(); a++) {
                            float[] values = outputs.get(1 + a).toFloatArray();
                            Int8Quantizer.observe(ranges, activations.get(a), values, values.length);
                        }
                    } finally {
                        outputs.close();
                    }
                }
            }
        }
        OnnxSession quantized = OnnxSession.load(Int8Quantizer.quantize(fp32, ranges, name).toByteArray(),
                "fedbpt-int8", options);
        session.close();
        session = quantized;
        this.int8 = true;
        LOG.info("{}: linear layers in int8 ({} activations calibrated on {} rows), {} ms", name, activations.size(),
                int8.rows().size(), (System.nanoTime() - t0) / 1_000_000);
    }

    private double[] standardNormal(GaussianStream gaussian) {
        double[] z = new double[promptSpec.dimension()];
        for (int i = 0; i < z.length; i++) z[i] = gaussian.next();
        return z;
    }

    // ---------------------------------------------------------------- public API

    /**
     * Token ids with [CLS] ... [SEP]. Rows longer than {@link #maxRowTokens()} are cut to that length, keeping the
     * final special token ([SEP]) when the row ends with one.
     */
    public int[] encode(String text) {
        return tokens.encode(text);
    }

    /**
     * Class scores for each row, [rows][classes], from one forward over the padded batch. A row's scores do not
     * depend on the other rows of the batch or on the padding.
     *
     * @throws IllegalArgumentException for a row that is too long, has a token outside the vocabulary, a z of the
     *                                  wrong length, or (masked-LM head) no [MASK]
     */
    public synchronized float[][] score(List<ScoreRow> rows) {
        if (closed) {
            throw new IllegalStateException("the model is closed (the run is shutting down)");
        }
        if (rows.isEmpty()) return new float[0][];
        EncodedBatch batch = prepare(rows);
        float[] out = forward(batch);
        return head.scores(out, lastWidth, batch);
    }

    public int vocabularySize() {
        return embeddings.vocabularySize();
    }

    public float[] wordEmbeddings() {
        return embeddings.weights();
    }

    @Override
    public int hiddenSize() {
        return embeddings.hiddenSize();
    }

    /** Transformer layers counted from node / initializer names ("layer.N"), or null when the names do not tell. */
    public Integer layerCount() {
        return layerCount;
    }

    public int[] specialTokenIds() {
        return tokens.specialTokenIds();
    }

    /** Id of [MASK] (or {@code <mask>}), or -1 if the tokenizer has none. */
    public int maskTokenId() {
        return tokenizer.maskTokenId();
    }

    public int numClasses() {
        return head.numClasses();
    }

    /** Whether the masked-LM head reads a graph cut to the label words at [MASK] ({@link MaskedLmGather}). */
    public boolean maskedLmGathered() {
        return head instanceof MaskedLmHead m && m.isGathered();
    }

    /** Whether the graph's linear layers compute in int8 ({@link ModelOptions#int8()}). */
    public boolean int8() {
        return int8;
    }

    /** The arithmetic of a forward pass of the graph as it runs (its head cut to the label words, if it is). */
    public ForwardFlops forwardFlops() {
        return forwardFlops;
    }

    /** Max abs difference of the cut masked-LM head from the full one on the probe rows; NaN when not cut. */
    public double headMaxAbsDiff() {
        return headMaxAbsDiff;
    }

    /** Max abs difference between the rewritten and the original graph on the load-time probe batch. */
    public double rewriteMaxAbsDiff() {
        return rewriteMaxAbsDiff;
    }

    /** Longest row (token ids incl. [CLS]/[SEP]) that fits with the prompt in the position table. */
    @Override
    public int maxRowTokens() {
        return tokens.maxRowTokens();
    }

    public PromptSpec promptSpec() {
        return promptSpec;
    }

    /**
     * Frees the native session, after any forward pass in flight: a run stopped by a signal closes its models while
     * an inference worker may still be inside ONNX Runtime, which would otherwise read freed memory (SIGSEGV).
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        session.close();
        tokenizer.close();
    }

    // ---------------------------------------------------------------- package-private (ModelCheck, tests)

    /** Standard deviation of the entries of A by construction (std_emb / sqrt(d)); NaN without a prompt. */
    double projectionEntryStd() {
        return projection == null ? Double.NaN : projection.entryStd();
    }

    RandomProjection projection() {
        return projection;
    }

    double embeddingStd() {
        return embeddings.standardDeviation();
    }

    OnnxSession session() {
        return session;
    }

    /**
     * Validates rows, expands each distinct z once (or takes it from the small cache of recent expansions: a client
     * scores the same candidate on its clean and its perturbed data), and fills the reused input buffers.
     */
    synchronized EncodedBatch prepare(List<ScoreRow> rows) {
        Map<ZKey, Integer> distinct = new LinkedHashMap<>();
        int[] zIndex = new int[rows.size()];
        List<int[]> ids = new ArrayList<>(rows.size());
        int extra = projection == null ? 0 : promptSpec.promptLength();
        for (int r = 0; r < rows.size(); r++) {
            ScoreRow row = rows.get(r);
            int[] t = row.tokenIds();
            int len = t.length + (row.z() != null ? extra : row.embeds() != null ? row.embeds().length / hiddenSize() : 0);
            if (row.embeds() != null && row.embeds().length % hiddenSize() != 0) {
                throw new IllegalArgumentException("row " + r + " has an embeddings prompt of " + row.embeds().length
                        + " floats, not a multiple of the hidden size " + hiddenSize());
            }
            if (len > maxPositions) {
                throw new IllegalArgumentException("row " + r + " has " + t.length + " tokens; with the prompt it needs "
                        + len + " positions but the model has " + maxPositions);
            }
            for (int id : t) {
                if (id < 0 || id >= vocabularySize()) {
                    throw new IllegalArgumentException("row " + r + " has token id " + id + " outside [0, "
                            + vocabularySize() + ")");
                }
            }
            ids.add(t);
            zIndex[r] = -1;
            if (row.z() != null && promptSpec.dimension() == 0) {
                throw new IllegalArgumentException("row " + r + " carries z, but the model was loaded for a method "
                        + "whose prompts carry none (no projection A)");
            }
            if (row.z() != null && projection != null) {
                if (row.z().length != promptSpec.dimension()) {
                    throw new IllegalArgumentException("row " + r + " has z of length " + row.z().length + ", expected "
                            + promptSpec.dimension());
                }
                zIndex[r] = distinct.computeIfAbsent(new ZKey(row.z()), k -> distinct.size());
            }
        }
        float[][] expanded = new float[distinct.size()][];
        List<ZKey> missing = new ArrayList<>();
        for (Map.Entry<ZKey, Integer> e : distinct.entrySet()) {
            float[] cached = expansionCache.get(e.getKey());
            if (cached != null) expanded[e.getValue()] = cached;
            else missing.add(e.getKey());
        }
        if (!missing.isEmpty()) {
            double[][] zs = new double[missing.size()][];
            for (int i = 0; i < zs.length; i++) zs[i] = missing.get(i).z;
            float[][] fresh = projection.expand(zs);
            for (int i = 0; i < zs.length; i++) {
                ZKey key = missing.get(i);
                expanded[distinct.get(key)] = fresh[i];
                expansionCache.put(new ZKey(key.z.clone()), fresh[i]); // own copy: callers may reuse their arrays
            }
        }
        List<float[]> prompts = new ArrayList<>(rows.size());
        int[][] labelRows = null;
        int[] tokenPrompts = null;
        for (int r = 0; r < rows.size(); r++) {
            prompts.add(zIndex[r] >= 0 ? expanded[zIndex[r]] : rows.get(r).embeds());
            if (rows.get(r).labelRow() != null) {
                if (labelRows == null) labelRows = new int[rows.size()][];
                labelRows[r] = rows.get(r).labelRow();
            }
            if (rows.get(r).tokenPrompt() > 0) {
                if (tokenPrompts == null) tokenPrompts = new int[rows.size()];
                tokenPrompts[r] = rows.get(r).tokenPrompt();
            }
        }
        EncodedBatch batch = encoder.encode(ids, prompts);
        if (labelRows != null) batch = batch.withLabelRows(labelRows);
        return tokenPrompts == null ? batch : batch.withTokenPrompts(tokenPrompts);
    }

    /**
     * The placeholder token ids of {@link PromptSpec.Injection#ADD_AFTER_LAYERNORM}, checked to be ordinary tokens of
     * the vocabulary.
     */
    private static int[] placeholderIds(PromptSpec spec, int vocabularySize, int[] specialIds)
            throws ModelLoadException {
        int[] ids = spec.placeholderIds();
        for (int id : ids) {
            if (id >= vocabularySize) {
                throw new ModelLoadException("the " + ids.length + " placeholder tokens of prompt-injection "
                        + "add-after-layernorm need token ids " + PromptSpec.PLACEHOLDER_OFFSET + " .. "
                        + (PromptSpec.PLACEHOLDER_OFFSET + ids.length - 1) + " but the vocabulary has "
                        + vocabularySize);
            }
            for (int special : specialIds) {
                if (id == special) {
                    throw new ModelLoadException("placeholder token id " + id + " of prompt-injection "
                            + "add-after-layernorm is a special token of this tokenizer");
                }
            }
        }
        return ids;
    }

    private int lastWidth;

    /** The {@value MaskedLmGather#MASK_POSITIONS} input of a cut masked-LM head's graph; null for any other head. */
    long[] maskPositions(EncodedBatch batch) {
        return head instanceof MaskedLmHead m && m.isGathered() ? m.maskPositions(batch) : null;
    }

    /** One forward; returns the first output flattened into a reused array (valid until the next call). */
    float[] forward(EncodedBatch batch) {
        try (NDManager manager = session.newCallManager()) {
            NDList outputs = session.forward(inputs(manager, batch));
            try {
                NDArray out = outputs.get(0);
                long[] shape = out.getShape().getShape();
                int seq = head instanceof MaskedLmHead m && m.isGathered() ? 1 : batch.seq();
                if (shape.length != 3 || shape[0] != batch.batch() || shape[1] != seq) {
                    throw new IllegalStateException("unexpected output shape " + out.getShape() + " for a batch of "
                            + batch.batch() + " x " + batch.seq());
                }
                lastWidth = (int) shape[2];
                int n = Math.toIntExact(out.size());
                if (outputBuffer.length < n) outputBuffer = new float[n];
                out.toByteBuffer().order(ByteOrder.nativeOrder()).asFloatBuffer().get(outputBuffer, 0, n);
                return outputBuffer;
            } finally {
                outputs.close();
            }
        }
    }

    /** The session's inputs for {@code batch}, made by {@code manager}. */
    private NDList inputs(NDManager manager, EncodedBatch batch) {
        NDList inputs = new NDList(
                OnnxSession.wrap(manager, batch.embeds(), new Shape(batch.batch(), batch.seq(), batch.hidden()),
                        DataType.FLOAT32, RewrittenGraph.INPUTS_EMBEDS),
                OnnxSession.wrap(manager, batch.mask(), new Shape(batch.batch(), batch.seq()),
                        DataType.INT64, RewrittenGraph.ATTENTION_MASK));
        long[] maskPositions = maskPositions(batch);
        if (maskPositions != null) {
            inputs.add(OnnxSession.wrap(manager, java.nio.LongBuffer.wrap(maskPositions),
                    new Shape(batch.batch()), DataType.INT64, MaskedLmGather.MASK_POSITIONS));
        }
        if (batch.promptAdd() != null) {
            inputs.add(OnnxSession.wrap(manager, batch.promptAdd(),
                    new Shape(batch.batch(), batch.seq(), batch.hidden()), DataType.FLOAT32,
                    RewrittenGraph.PROMPT_ADD));
        }
        return inputs;
    }

    /** A z compared by content, so equal z in one batch are expanded once. */
    private static final class ZKey {
        final double[] z;
        final int hash;

        ZKey(double[] z) {
            this.z = z;
            this.hash = Arrays.hashCode(z);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ZKey k && k.hash == hash && Arrays.equals(k.z, z);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
