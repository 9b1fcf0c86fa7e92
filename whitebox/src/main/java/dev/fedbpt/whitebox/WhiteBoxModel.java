package dev.fedbpt.whitebox;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import dev.fedbpt.inference.DjlEnvironment;
import dev.fedbpt.inference.EncoderWeights;
import dev.fedbpt.inference.HeadSpec;
import dev.fedbpt.inference.ModelLoadException;
import dev.fedbpt.inference.ModelSource;
import dev.fedbpt.inference.Pooling;
import dev.fedbpt.inference.PromptSpec;
import dev.fedbpt.inference.PromptTokenizer;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bundled encoder (or any BERT-family export) as a white box: the same class scores as the ONNX Runtime path's
 * similarity head, computed on PyTorch from the ONNX file's own weights, with a {@link DeepPrompt} (soft prompt after
 * [CLS], P-tuning v2 prefix on every layer, or both) and the gradient of the cross-entropy with respect to it.
 *
 * <p>A row is laid out as the ONNX path lays it out: [CLS], the soft prompt, the row's other tokens, padding (zero
 * vectors, masked). The similarity head pools the row's own positions ({@link Pooling#pooledIndices}) and scores
 * cos(row, label description) / temperature, the label descriptions embedded once at load without a prompt.
 * Methods are synchronized: one call at a time per model.
 */
public final class WhiteBoxModel implements AutoCloseable {
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

    private final TorchEncoder encoder;
    private final PromptTokenizer tokenizer;
    private final HeadSpec.Similarity head;
    private final int separator;
    private final NDArray labelUnit;

    private WhiteBoxModel(TorchEncoder encoder, PromptTokenizer tokenizer, HeadSpec.Similarity head) {
        this.encoder = encoder;
        this.tokenizer = tokenizer;
        this.head = head;
        int[] probe = tokenizer.encode("a");
        this.separator = probe[probe.length - 1];
        List<int[]> rows = new ArrayList<>();
        for (String d : head.labelDescriptions()) rows.add(tokenizer.encode(d));
        try (NDManager call = encoder.manager().newSubManager()) {
            NDArray unit = pooledUnit(call, DeepPrompt.none(), null, null, rows);
            unit.attach(encoder.manager());
            this.labelUnit = unit;
        }
    }

    /**
     * Reads the export's weights and tokenizer and embeds the label descriptions.
     *
     * @param head    the similarity head (its {@link Pooling#DEFAULT} is resolved for {@code source})
     * @param threads PyTorch's intra-op threads when it starts in this JVM (0: its default); a later model shares the
     *                engine and its threads
     * @throws ModelLoadException for a missing or unreadable file or a graph this backend cannot rebuild, or when
     *                            PyTorch's native library cannot be loaded
     */
    public static WhiteBoxModel load(ModelSource source, HeadSpec.Similarity head, Precision precision, int threads)
            throws ModelLoadException {
        long t0 = System.nanoTime();
        DjlEnvironment.prepare();
        if (threads > 0 && System.getProperty("ai.djl.pytorch.num_threads") == null) {
            System.setProperty("ai.djl.pytorch.num_threads", Integer.toString(threads));
        }
        EncoderWeights weights = EncoderWeights.read(source);
        PromptTokenizer tokenizer = PromptTokenizer.load(source, new PromptSpec(0, 1, 0, PromptSpec.Injection.PREPEND));
        TorchEncoder encoder;
        try {
            encoder = TorchEncoder.load(weights, precision.type);
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            tokenizer.close();
            throw new ModelLoadException("cannot start DJL's PyTorch engine (libtorch from "
                    + "ai.djl.pytorch:pytorch-native-cpu on the class path): " + e, e);
        }
        WhiteBoxModel model = new WhiteBoxModel(encoder, tokenizer, head.forModel(source));
        LOG.info("white-box model {}: {} layers, {} heads, hidden {}, {} ({} ms)", weights.name(),
                weights.layerCount(), weights.heads(), weights.hiddenSize(), precision,
                (System.nanoTime() - t0) / 1_000_000);
        return model;
    }

    /** Token ids of {@code text}, [CLS] ... [SEP], as the ONNX path encodes them. */
    public int[] encode(String text) {
        return tokenizer.encode(text);
    }

    public int hiddenSize() {
        return encoder.weights().hiddenSize();
    }

    public int heads() {
        return encoder.weights().heads();
    }

    public int layerCount() {
        return encoder.weights().layerCount();
    }

    public int numClasses() {
        return head.numClasses();
    }

    /** Class scores [rows][classes] of {@code rows} under {@code prompt} (no gradient recorded). */
    public synchronized float[][] scores(DeepPrompt prompt, List<int[]> rows) {
        prompt.checkShape(hiddenSize(), layerCount());
        try (NDManager call = encoder.manager().newSubManager()) {
            NDArray input = prompt.inputLength() == 0 ? null : param(call, prompt.input(), false);
            NDArray prefix = prompt.prefixLength() == 0 ? null : param(call, prompt.prefix(), false);
            return scores(pooledUnit(call, prompt, input, prefix, rows));
        }
    }

    /**
     * The mean cross-entropy of {@code rows} with {@code labels} under {@code prompt}, and its gradient with respect
     * to the prompt's values.
     */
    public synchronized LossAndGradient lossAndGradient(DeepPrompt prompt, List<int[]> rows, int[] labels) {
        prompt.checkShape(hiddenSize(), layerCount());
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
        try (NDManager call = encoder.manager().newSubManager();
             GradientCollector collector = Engine.getEngine("PyTorch").newGradientCollector()) {
            NDArray input = prompt.inputLength() == 0 ? null : param(call, prompt.input(), true);
            NDArray prefix = prompt.prefixLength() == 0 ? null : param(call, prompt.prefix(), true);
            NDArray scores = pooledUnit(call, prompt, input, prefix, rows).matMul(labelUnit.transpose())
                    .div(head.temperature());
            NDArray target = call.create(oneHot, new Shape(rows.size(), classes)).toType(encoder.type(), false);
            NDArray loss = scores.logSoftmax(1).mul(target).sum().neg().div(rows.size());
            collector.backward(loss);
            double[] gInput = input == null ? new double[0] : input.getGradient().toType(DataType.FLOAT64, false)
                    .toDoubleArray();
            double[] gPrefix = prefix == null ? new double[0] : prefix.getGradient().toType(DataType.FLOAT64, false)
                    .toDoubleArray();
            return new LossAndGradient(loss.toType(DataType.FLOAT64, false).getDouble(), gInput, gPrefix,
                    toFloats(scores));
        }
    }

    private float[][] scores(NDArray unit) {
        return toFloats(unit.matMul(labelUnit.transpose()).div(head.temperature()));
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
        NDArray a = call.create(values).toType(encoder.type(), false);
        if (gradient) a.setRequiresGradient(true);
        return a;
    }

    /** The rows' pooled, unit-length output vectors [rows, hidden] under the prompt arrays given. */
    private NDArray pooledUnit(NDManager call, DeepPrompt prompt, NDArray input, NDArray prefix, List<int[]> rows) {
        int h = hiddenSize();
        int t = prompt.inputLength();
        int b = rows.size();
        int s = 1;
        for (int[] row : rows) s = Math.max(s, row.length + t);
        float[] words = encoder.weights().wordEmbeddings();
        float[] base = new float[b * s * h];
        float[] mask = new float[b * s];
        float[] pool = new float[b * s];
        Pooling pooling = head.pooling();
        for (int r = 0; r < b; r++) {
            int[] row = rows.get(r);
            for (int i = 0; i < row.length; i++) {
                int pos = i == 0 ? 0 : i + t;
                System.arraycopy(words, row[i] * h, base, (r * s + pos) * h, h);
            }
            for (int k = 0; k < row.length + t; k++) mask[r * s + k] = 1f;
            int[] pooled = pooling.pooledIndices(row, separator);
            for (int i : pooled) pool[r * s + (i == 0 ? 0 : i + t)] = 1f / pooled.length;
        }
        NDArray embeds = call.create(base, new Shape(b, s, h)).toType(encoder.type(), false);
        if (input != null) {
            NDArray p = input.reshape(t, h);
            NDArray before = call.zeros(new Shape(1, h), encoder.type());
            NDArray after = call.zeros(new Shape(s - 1 - t, h), encoder.type());
            embeds = embeds.add(before.concat(p, 0).concat(after, 0));
        }
        NDArray prefixKv = prefix == null ? null
                : prefix.reshape(layerCount(), 2, prompt.prefixLength(), h);
        NDArray out = encoder.forward(embeds, call.create(mask, new Shape(b, s)), prefixKv);
        NDArray weights = call.create(pool, new Shape(b, s, 1)).toType(encoder.type(), false);
        NDArray pooled = out.mul(weights).sum(new int[]{1});
        return pooled.div(pooled.norm(new int[]{1}, true));
    }

    @Override
    public synchronized void close() {
        encoder.close();
        tokenizer.close();
    }
}
