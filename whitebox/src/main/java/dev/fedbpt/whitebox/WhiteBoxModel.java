package dev.fedbpt.whitebox;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.PromptScorer;
import dev.fedbpt.inference.DjlEnvironment;
import dev.fedbpt.inference.EncoderWeights;
import dev.fedbpt.inference.HeadSpec;
import dev.fedbpt.inference.ModelLoadException;
import dev.fedbpt.inference.ModelSource;
import dev.fedbpt.inference.Pooling;
import dev.fedbpt.inference.PromptSpec;
import dev.fedbpt.inference.PromptTokenizer;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.inference.ScoringModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bundled encoder (or any BERT-family export) as a white box: the same class scores as the ONNX Runtime path's
 * head, computed on PyTorch from the ONNX file's own weights, with a {@link Prompt.Deep} (soft prompt after [CLS],
 * P-tuning v2 prefix on every layer, or both) and the gradient of the cross-entropy with respect to it.
 *
 * <p>A row is laid out as the ONNX path lays it out: [CLS], the soft prompt, the row's other tokens, padding (zero
 * vectors, masked). The similarity head pools the row's own positions ({@link Pooling#pooledIndices}) and scores
 * cos(row, label description) / temperature, the label descriptions embedded once at load without a prompt. The
 * masked-LM head (an export with BERT's {@code cls.predictions}) takes the state at the row's first [MASK] through
 * the head's transform and scores each label word by its logit there, as the ONNX path's cut head does.
 *
 * <p>Results depend only on the call, to the bit: {@link #score(List)} (the inference pool's batches, gathered from
 * many clients) runs each row alone, {@link #score(Prompt, List)} splits its rows into chunks of {@value #CHUNK} in
 * the order given, and each computation runs on the model's own thread ({@link TorchThread}; each inference worker
 * loads a model) with one PyTorch intra-op thread. Every tensor the backward pass reads is libtorch's own memory
 * ({@link TorchEncoder#owned}, {@link TorchEncoder#scalar}): DJL's arithmetic with Java numbers frees the number's
 * buffer before the backward pass reads it, which made gradients NaN or off in their last bits whenever a garbage
 * collection ran in between (and, with two models computing at once, made them depend on what the other computed).
 */
public final class WhiteBoxModel implements ScoringModel, PromptScorer {
    /** Rows per forward pass of one prompt's request: bounds memory, and fixes how a request's rows are grouped. */
    static final int CHUNK = 16;
    private static final Logger LOG = LoggerFactory.getLogger(WhiteBoxModel.class);

    /** Arithmetic of the rebuilt encoder. */
    public enum Precision {
        /** As the ONNX file stores the weights: the precision of training and of the model check. */
        FLOAT32(DataType.FLOAT32),
        /** Weights widened to double: for checking gradients against finite differences. */
        FLOAT64(DataType.FLOAT64);

        private final DataType type;

        Precision(DataType type) {
            this.type = type;
        }
    }

    private final TorchThread torch;
    private final TorchEncoder encoder;
    private final PromptTokenizer tokenizer;
    private final HeadSpec head;
    private final int separator;
    /** The similarity head (null for the masked-LM head). */
    private final HeadSpec.Similarity similarity;
    /** The label descriptions' pooled unit vectors, transposed: [hidden, classes]; similarity head only. */
    private final NDArray labelUnitT;
    /** The masked-LM head's [MASK] token id, or -1. */
    private final int maskToken;
    /** The label words' tied decoder rows, transposed, [hidden, classes], and output biases [classes]. */
    private final NDArray decoderT;
    private final NDArray labelBias;

    private WhiteBoxModel(TorchThread torch, TorchEncoder encoder, PromptTokenizer tokenizer, HeadSpec head,
                          PromptTokenizer.MaskedLmTokens tokens) {
        this.torch = torch;
        this.encoder = encoder;
        this.tokenizer = tokenizer;
        this.head = head;
        int[] probe = tokenizer.encode("a");
        this.separator = probe[probe.length - 1];
        this.similarity = head instanceof HeadSpec.Similarity s ? s : null;
        if (similarity != null) {
            List<int[]> rows = new ArrayList<>();
            for (String d : similarity.labelDescriptions()) rows.add(tokenizer.encode(d));
            this.labelUnitT = torch.call(() -> {
                try (NDManager call = encoder.manager().newSubManager()) {
                    NDArray unitT = pooledUnit(call, null, null, null, rows, null).transpose().duplicate();
                    unitT.attach(encoder.manager());
                    return unitT;
                }
            });
            this.maskToken = -1;
            this.decoderT = null;
            this.labelBias = null;
        } else {
            EncoderWeights w = encoder.weights();
            int h = w.hiddenSize();
            int[] ids = tokens.labelWords();
            float[] decoder = new float[h * ids.length];
            float[] bias = new float[ids.length];
            for (int c = 0; c < ids.length; c++) {
                for (int j = 0; j < h; j++) decoder[j * ids.length + c] = w.wordEmbeddings()[ids[c] * h + j];
                bias[c] = w.mlmHead().outputBias()[ids[c]];
            }
            this.labelUnitT = null;
            this.maskToken = tokens.mask();
            this.decoderT = torch.call(() -> encoder.array(decoder, new Shape(h, ids.length)));
            this.labelBias = torch.call(() -> encoder.array(bias, new Shape(ids.length)));
        }
    }

    /**
     * Reads the export's weights and tokenizer and embeds the label descriptions.
     *
     * @param head the similarity head (its {@link Pooling#DEFAULT} is resolved for {@code source}) or the masked-LM
     *             head (the export must carry BERT's {@code cls.predictions})
     * @throws ModelLoadException for a missing or unreadable file or a graph this backend cannot rebuild, a label
     *                            word that is not one token, or when PyTorch's native library cannot be loaded
     */
    public static WhiteBoxModel load(ModelSource source, HeadSpec head, Precision precision)
            throws ModelLoadException {
        return load(source, head, precision, 0);
    }

    /**
     * @param reservedPositions positions a prompt takes from the model's position table (soft prompt and prefix
     *                          lengths): rows are cut to what is left, as the ONNX path cuts them
     */
    public static WhiteBoxModel load(ModelSource source, HeadSpec head, Precision precision,
                                     int reservedPositions) throws ModelLoadException {
        long t0 = System.nanoTime();
        DjlEnvironment.prepare();
        if (System.getProperty("ai.djl.pytorch.num_threads") == null) {
            System.setProperty("ai.djl.pytorch.num_threads", "1");
            System.setProperty("ai.djl.pytorch.num_interop_threads", "1");
        }
        EncoderWeights weights = EncoderWeights.read(source);
        PromptTokenizer tokenizer = tokenizer(source, reservedPositions);
        PromptTokenizer.MaskedLmTokens tokens = null;
        if (head instanceof HeadSpec.MaskedLm masked) {
            try {
                if (!weights.hasMlmHead()) {
                    throw new ModelLoadException(weights.name() + " has no masked-LM head (cls.predictions.*): "
                            + "the masked-LM head needs an export of a masked LM, e.g. model.bundled = "
                            + "bert-base-uncased");
                }
                tokens = tokenizer.maskedLmTokens(masked);
            } catch (ModelLoadException e) {
                tokenizer.close();
                throw e;
            }
        }
        TorchThread torch = new TorchThread();
        TorchEncoder encoder;
        try {
            encoder = torch.call(() -> TorchEncoder.load(weights, precision.type));
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            torch.close();
            tokenizer.close();
            throw new ModelLoadException("cannot start DJL's PyTorch engine (libtorch from "
                    + "ai.djl.pytorch:pytorch-native-cpu on the class path): " + e, e);
        }
        WhiteBoxModel model;
        try {
            model = new WhiteBoxModel(torch, encoder, tokenizer, head.forModel(source), tokens);
        } catch (RuntimeException e) {
            release(torch, encoder, tokenizer);
            throw e;
        }
        LOG.info("white-box model {}: {} layers, {} heads, hidden {}, {}, {} head ({} ms)", weights.name(),
                weights.layerCount(), weights.heads(), weights.hiddenSize(), precision,
                head instanceof HeadSpec.MaskedLm ? "masked-LM" : "similarity",
                (System.nanoTime() - t0) / 1_000_000);
        return model;
    }

    /**
     * The tokenizer this backend encodes with, alone (for a member that prepares data but scores nothing): rows cut
     * to the positions {@code reservedPositions} leaves, as {@link #load} cuts them.
     */
    public static PromptTokenizer tokenizer(ModelSource source, int reservedPositions) throws ModelLoadException {
        return PromptTokenizer.load(source, new PromptSpec(reservedPositions, 1, 0, PromptSpec.Injection.PREPEND));
    }

    /** Token ids of {@code text}, [CLS] ... [SEP], as the ONNX path encodes them. */
    @Override
    public int[] encode(String text) {
        return tokenizer.encode(text);
    }

    @Override
    public int maxRowTokens() {
        return tokenizer.maxRowTokens();
    }

    @Override
    public int vocabularySize() {
        return tokenizer.vocabularySize();
    }

    @Override
    public int[] specialTokenIds() {
        return tokenizer.specialTokenIds();
    }

    @Override
    public float[] wordEmbeddings() {
        return encoder.weights().wordEmbeddings();
    }

    @Override
    public int hiddenSize() {
        return encoder.weights().hiddenSize();
    }

    public int heads() {
        return encoder.weights().heads();
    }

    @Override
    public int layers() {
        return encoder.weights().layerCount();
    }

    @Override
    public int numClasses() {
        return head.numClasses();
    }

    /**
     * Class scores of the pool's rows, each row alone (so that they never depend on the batch). A row may carry a
     * soft prompt as embeddings; a projected z is the ONNX path's alone.
     */
    @Override
    public float[][] score(List<ScoreRow> rows) {
        float[][] out = new float[rows.size()][];
        for (int r = 0; r < rows.size(); r++) {
            ScoreRow row = rows.get(r);
            if (row.z() != null) {
                throw new UnsupportedOperationException("the white-box backend takes prompts as embeddings or deep "
                        + "prompts, not as a projected z (FedBPT's prompts run on model.backend = onnx)");
            }
            Prompt.Deep prompt = deep(row.embeds() == null ? null
                    : Prompt.Deep.input(row.embeds().length / hiddenSize(), doubles(row.embeds())));
            int[] tokenPrompt = {row.tokenPrompt()};
            out[r] = torch.call(() -> scoreAlone(prompt, List.of(row.tokenIds()), tokenPrompt))[0];
        }
        return out;
    }

    /**
     * Class scores [rows][classes] of {@code rows} under {@code prompt}: null (none), {@link Prompt.Deep} or
     * {@link Prompt.Embeddings} (a soft prompt); no gradient recorded.
     */
    @Override
    public float[][] score(Prompt prompt, List<int[]> rows) {
        Prompt.Deep deep = deep(prompt);
        return torch.call(() -> scoreAlone(deep, rows, null));
    }

    /** @param tokenPrompts per row the length of its token prompt ({@link ScoreRow#tokenPrompt}), or null: none */
    private float[][] scoreAlone(Prompt.Deep deep, List<int[]> rows, int[] tokenPrompts) {
        // no autograd graph for a forward pass alone (libtorch records one by default on every thread)
        boolean before = JniUtils.isGradMode();
        JniUtils.setGradMode(false);
        float[][] out = new float[rows.size()][];
        try {
            for (int from = 0; from < rows.size(); from += CHUNK) {
                List<int[]> chunk = rows.subList(from, Math.min(rows.size(), from + CHUNK));
                try (NDManager call = encoder.manager().newSubManager()) {
                    NDArray input = deep == null || deep.inputLength() == 0 ? null : param(call, deep.input(), false);
                    NDArray prefix = deep == null || deep.prefixLength() == 0 ? null
                            : param(call, deep.prefix(), false);
                    int[] chunkPrompts = tokenPrompts == null ? null
                            : Arrays.copyOfRange(tokenPrompts, from, from + chunk.size());
                    float[][] scores = toFloats(classScores(call, deep, input, prefix, chunk, chunkPrompts));
                    System.arraycopy(scores, 0, out, from, scores.length);
                }
            }
        } finally {
            JniUtils.setGradMode(before);
        }
        return out;
    }

    private Prompt.Deep deep(Prompt prompt) {
        Prompt.Deep deep;
        if (prompt == null || prompt instanceof Prompt.Deep) {
            deep = (Prompt.Deep) prompt;
        } else if (prompt instanceof Prompt.Embeddings e) {
            deep = Prompt.Deep.input(e.vectors().length, doubles(e.flattened()));
        } else {
            throw new UnsupportedOperationException("the white-box backend takes deep or embeddings prompts, not "
                    + prompt.getClass().getSimpleName());
        }
        if (deep != null) deep.checkShape(hiddenSize(), layers());
        return deep;
    }

    /**
     * The mean cross-entropy of {@code rows} with {@code labels} under {@code prompt}, and its gradient with respect
     * to the prompt's values; the rows are one batch.
     */
    @Override
    public Gradient lossAndGradient(Prompt.Deep prompt, List<int[]> rows, int[] labels) {
        prompt.checkShape(hiddenSize(), layers());
        if (labels.length != rows.size()) {
            throw new IllegalArgumentException(rows.size() + " rows but " + labels.length + " labels");
        }
        int classes = numClasses();
        float[] oneHot = new float[rows.size() * classes];
        for (int r = 0; r < labels.length; r++) {
            if (labels[r] < 0 || labels[r] >= classes) {
                throw new IllegalArgumentException("label " + labels[r] + " of row " + r + " is not a class of "
                        + classes);
            }
            oneHot[r * classes + labels[r]] = 1f;
        }
        return torch.call(() -> gradientAlone(prompt, rows, oneHot, classes));
    }

    private Gradient gradientAlone(Prompt.Deep prompt, List<int[]> rows, float[] oneHot, int classes) {
        // libtorch's grad mode is per thread; DJL's GradientCollector is one per JVM and would refuse a second
        // computation's backward pass while the first one's runs, so the backward pass is libtorch's own.
        boolean before = JniUtils.isGradMode();
        JniUtils.setGradMode(true);
        try (NDManager call = encoder.manager().newSubManager()) {
            NDArray input = prompt.inputLength() == 0 ? null : param(call, prompt.input(), true);
            NDArray prefix = prompt.prefixLength() == 0 ? null : param(call, prompt.prefix(), true);
            NDArray scores = classScores(call, prompt, input, prefix, rows);
            NDArray target = TorchEncoder.owned(call.create(oneHot, new Shape(rows.size(), classes)), encoder.type());
            NDArray loss = scores.logSoftmax(1).mul(target).sum().neg()
                    .div(TorchEncoder.scalar(call, rows.size()));
            JniUtils.backward((PtNDArray) loss, (PtNDArray) call.ones(loss.getShape(), loss.getDataType()), false,
                    false);
            double[] gInput = input == null ? new double[0] : input.getGradient().toType(DataType.FLOAT64, false)
                    .toDoubleArray();
            double[] gPrefix = prefix == null ? new double[0] : prefix.getGradient().toType(DataType.FLOAT64, false)
                    .toDoubleArray();
            return new Gradient(loss.toType(DataType.FLOAT64, false).getDouble(), gInput, gPrefix);
        } finally {
            JniUtils.setGradMode(before);
        }
    }

    /**
     * Each layer's cosine similarities [layer][row][row] between {@code rows}' hidden states without a prompt, each
     * row's states flattened over the batch's positions (padding included), in float32 as the model computes them.
     */
    @Override
    public double[][][] layerKernels(List<int[]> rows) {
        return torch.call(() -> {
            boolean before = JniUtils.isGradMode();
            JniUtils.setGradMode(false);
            try (NDManager call = encoder.manager().newSubManager()) {
                List<NDArray> layers = encoder.forwardLayers(embeddings(call, null, null, rows), mask(call, null, rows),
                        null);
                double[][][] out = new double[layers.size()][][];
                int b = rows.size();
                for (int l = 0; l < layers.size(); l++) {
                    NDArray flat = layers.get(l).reshape(b, -1);
                    NDArray unit = flat.div(flat.norm(new int[]{1}, true));
                    double[] k = unit.matMul(unit.transpose()).toType(DataType.FLOAT64, false).toDoubleArray();
                    out[l] = new double[b][b];
                    for (int r = 0; r < b; r++) System.arraycopy(k, r * b, out[l][r], 0, b);
                }
                return out;
            } finally {
                JniUtils.setGradMode(before);
            }
        });
    }

    private static double[] doubles(float[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < out.length; i++) out[i] = values[i];
        return out;
    }

    /** The head's class scores [rows, classes] of {@code rows} under the prompt arrays given. */
    private NDArray classScores(NDManager call, Prompt.Deep prompt, NDArray input, NDArray prefix, List<int[]> rows) {
        return classScores(call, prompt, input, prefix, rows, null);
    }

    /** As above, for rows whose token prompts ({@link ScoreRow#tokenPrompt}, null: none) the similarity head skips. */
    private NDArray classScores(NDManager call, Prompt.Deep prompt, NDArray input, NDArray prefix, List<int[]> rows,
                                int[] tokenPrompts) {
        if (similarity != null) {
            // cos(row, label) / temperature
            return pooledUnit(call, prompt, input, prefix, rows, tokenPrompts).matMul(labelUnitT)
                    .div(TorchEncoder.scalar(call, similarity.temperature()));
        }
        int t = promptLength(prompt);
        int b = rows.size();
        int s = positions(prompt, rows);
        float[] atMask = new float[b * s];
        for (int r = 0; r < b; r++) {
            int i = maskIndex(rows.get(r), r);
            atMask[r * s + (i == 0 ? 0 : i + t)] = 1f;
        }
        NDArray weights = TorchEncoder.owned(call.create(atMask, new Shape(b, s, 1)), encoder.type());
        NDArray states = hidden(call, prompt, input, prefix, rows).mul(weights).sum(new int[]{1}); // [B, H]
        return encoder.mlmLogits(states, decoderT, labelBias);
    }

    private int maskIndex(int[] row, int r) {
        for (int i = 0; i < row.length; i++) {
            if (row[i] == maskToken) return i;
        }
        throw new IllegalArgumentException("row " + r + " has no [MASK] token (id " + maskToken
                + "); the masked-LM head reads the label words' logits there");
    }

    private static float[][] toFloats(NDArray scores) {
        int rows = (int) scores.getShape().get(0);
        int classes = (int) scores.getShape().get(1);
        float[] flat = scores.toType(DataType.FLOAT32, false).toFloatArray();
        float[][] out = new float[rows][classes];
        for (int r = 0; r < rows; r++) System.arraycopy(flat, r * classes, out[r], 0, classes);
        return out;
    }

    private NDArray param(NDManager call, double[] values, boolean gradient) {
        NDArray a = TorchEncoder.owned(call.create(values), encoder.type());
        if (gradient) a.setRequiresGradient(true);
        return a;
    }

    /** The rows' pooled, unit-length output vectors [rows, hidden] under the prompt arrays given. */
    private NDArray pooledUnit(NDManager call, Prompt.Deep prompt, NDArray input, NDArray prefix, List<int[]> rows,
                               int[] tokenPrompts) {
        int t = promptLength(prompt);
        int b = rows.size();
        int s = positions(prompt, rows);
        float[] pool = new float[b * s];
        Pooling pooling = similarity.pooling();
        for (int r = 0; r < b; r++) {
            int leftOut = tokenPrompts == null ? 0 : similarity.tokenPromptLeftOut(tokenPrompts[r]);
            int[] pooled = pooling.pooledIndices(rows.get(r), separator, leftOut);
            for (int i : pooled) pool[r * s + (i == 0 ? 0 : i + t)] = 1f / pooled.length;
        }
        NDArray out = hidden(call, prompt, input, prefix, rows);
        NDArray weights = TorchEncoder.owned(call.create(pool, new Shape(b, s, 1)), encoder.type());
        NDArray pooled = out.mul(weights).sum(new int[]{1});
        return pooled.div(pooled.norm(new int[]{1}, true));
    }

    /** The last hidden state [rows, positions, hidden] of {@code rows} under the prompt arrays given. */
    private NDArray hidden(NDManager call, Prompt.Deep prompt, NDArray input, NDArray prefix, List<int[]> rows) {
        NDArray prefixKv = prefix == null ? null
                : prefix.reshape(layers(), 2, prompt.prefixLength(), hiddenSize());
        return encoder.forward(embeddings(call, prompt, input, rows), mask(call, prompt, rows), prefixKv,
                prompt == null ? new int[0] : prompt.maskedPrefixLayers());
    }

    private static int promptLength(Prompt.Deep prompt) {
        return prompt == null ? 0 : prompt.inputLength();
    }

    /** The batch's positions: its longest row with the soft prompt. */
    private static int positions(Prompt.Deep prompt, List<int[]> rows) {
        int s = 1;
        for (int[] row : rows) s = Math.max(s, row.length + promptLength(prompt));
        return s;
    }

    /**
     * The rows' input embeddings [B, S, H] as the ONNX path lays them out: [CLS], the soft prompt ({@code input}, or
     * none), the row's other tokens, zero vectors as padding.
     */
    private NDArray embeddings(NDManager call, Prompt.Deep prompt, NDArray input, List<int[]> rows) {
        int h = hiddenSize();
        int t = promptLength(prompt);
        int b = rows.size();
        int s = positions(prompt, rows);
        float[] words = encoder.weights().wordEmbeddings();
        float[] base = new float[b * s * h];
        for (int r = 0; r < b; r++) {
            int[] row = rows.get(r);
            for (int i = 0; i < row.length; i++) {
                int pos = i == 0 ? 0 : i + t;
                System.arraycopy(words, row[i] * h, base, (r * s + pos) * h, h);
            }
        }
        NDArray embeds = TorchEncoder.owned(call.create(base, new Shape(b, s, h)), encoder.type());
        if (input != null) {
            NDArray p = input.reshape(t, h);
            NDArray before = call.zeros(new Shape(1, h), encoder.type());
            NDArray after = call.zeros(new Shape(s - 1 - t, h), encoder.type());
            embeds = embeds.add(before.concat(p, 0).concat(after, 0));
        }
        return embeds;
    }

    /** [B, S]: 1 for each row's positions (the soft prompt's included), 0 for padding. */
    private NDArray mask(NDManager call, Prompt.Deep prompt, List<int[]> rows) {
        int b = rows.size();
        int s = positions(prompt, rows);
        float[] mask = new float[b * s];
        for (int r = 0; r < b; r++) {
            for (int k = 0; k < rows.get(r).length + promptLength(prompt); k++) mask[r * s + k] = 1f;
        }
        return TorchEncoder.owned(call.create(mask, new Shape(b, s)), DataType.FLOAT32);
    }

    @Override
    public void close() {
        release(torch, encoder, tokenizer);
    }

    /**
     * Frees what {@link #load} acquired: the encoder's native memory on its own thread, then the thread and the
     * tokenizer's native handle, each even when freeing the one before it fails.
     */
    private static void release(TorchThread torch, TorchEncoder encoder, PromptTokenizer tokenizer) {
        try {
            torch.call(() -> {
                encoder.close();
                return null;
            });
        } finally {
            try {
                torch.close();
            } finally {
                tokenizer.close();
            }
        }
    }
}
