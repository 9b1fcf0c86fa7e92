package dev.fedbpt.inference;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Loads, rewrites and verifies a model, then measures forward throughput of the module against a bare session.
 * Returns data only (no printing): the CLI formats it.
 *
 * <p>Benchmark protocol, per batch size B: B rows of {@code rowTokens} token ids ([CLS], random non-special ids,
 * [SEP]; with a masked-LM head the second token is [MASK]), all carrying the same z, so each module call expands one
 * z (as when one CMA-ES candidate is scored on a batch of examples); a fresh z per call, so the expansion is paid on
 * every call. "Module" = {@link PromptModel#score} (z expansion, embedding lookup into the reused direct buffers,
 * forward, output copy, head). "Bare" = the same DJL/ONNX Runtime session's forward on precomputed
 * {@code inputs_embeds} + {@code attention_mask} NDArrays of the same batch, nothing else. Module and bare calls
 * alternate (and which goes first alternates too), after {@code warmup} untimed pairs (and ten untimed prompt expansions before the first batch size, for the
 * JIT); rows/s = B / median time of {@code repetitions} calls.
 */
public final class ModelCheck {

    /** Benchmark settings. */
    public record Settings(int rowTokens, int promptLength, int dimension, List<Integer> batchSizes, int warmup,
                           int repetitions, ModelOptions options) {
        public static Settings defaults() {
            return new Settings(64, 50, 500, List.of(1, 8, 32, 64), 3, 5, ModelOptions.defaults());
        }

        public Settings withOptions(ModelOptions other) {
            return new Settings(rowTokens, promptLength, dimension, batchSizes, warmup, repetitions, other);
        }
    }

    private ModelCheck() {
    }

    public static ModelCheckResult run(ModelSource source) throws ModelLoadException {
        return run(source, Settings.defaults());
    }

    public static ModelCheckResult run(ModelSource source, Settings settings) throws ModelLoadException {
        PromptSpec spec = new PromptSpec(settings.promptLength(), settings.dimension(), 1L);
        PromptModel model;
        boolean masked = false;
        try {
            model = PromptModel.load(source, spec,
                    new HeadSpec.Similarity(List.of("It was terrible.", "It was great.")), settings.options());
        } catch (ModelLoadException e) {
            if (!e.getMessage().contains("use HeadSpec.MaskedLm")) throw e;
            model = PromptModel.load(source, spec, new HeadSpec.MaskedLm(List.of("bad", "great")), settings.options());
            masked = true;
        }
        List<ModelCheckResult.Throughput> out;
        ModelCheckResult result;
        double cutDiff;
        try (PromptModel m = model) {
            warmUpJit(m, settings);
            out = measureAll(m, settings, masked);
            double ratio = out.stream().filter(t -> t.batchSize() == 32).findFirst()
                    .orElse(out.get(out.size() - 1)).ratio();
            result = new ModelCheckResult(source.describe(), m.hiddenSize(), m.vocabularySize(), m.layerCount(),
                    m.rewriteMaxAbsDiff(), settings.rowTokens(), settings.promptLength(), settings.dimension(), out,
                    ratio, null);
            if (!m.maskedLmGathered()) return result;
            cutDiff = m.headMaxAbsDiff();
        }
        // the same rows through the full vocabulary logits, after the cut head (peak memory only grows)
        long cutPeak = peakRssBytes();
        List<ModelCheckResult.Throughput> full;
        try (PromptModel m = PromptModel.load(source, spec, new HeadSpec.MaskedLm(List.of("bad", "great")),
                settings.options().withMaskedLmGather(false))) {
            warmUpJit(m, settings);
            full = measureAll(m, settings, true);
        }
        return new ModelCheckResult(result.model(), result.hiddenSize(), result.vocabularySize(), result.layerCount(),
                result.rewriteMaxAbsDiff(), result.rowTokens(), result.promptLength(), result.dimension(), out,
                result.ratio(), new ModelCheckResult.MaskedLmHeads(cutDiff, cutPeak, full, peakRssBytes()));
    }

    private static List<ModelCheckResult.Throughput> measureAll(PromptModel m, Settings settings, boolean masked) {
        List<ModelCheckResult.Throughput> out = new ArrayList<>();
        for (int b : settings.batchSizes()) out.add(measure(m, settings, b, masked));
        return out;
    }

    /** VmHWM of /proc/self/status (Linux), or -1 where it cannot be read. */
    static long peakRssBytes() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    private static ModelCheckResult.Throughput measure(PromptModel m, Settings s, int batchSize, boolean masked) {
        SplittableRandom rnd = new SplittableRandom(batchSize);
        int[] special = m.specialTokenIds();
        int[] frame = m.encode("");
        int tokens = Math.min(s.rowTokens(), m.maxRowTokens());
        List<int[]> rows = new ArrayList<>();
        for (int r = 0; r < batchSize; r++) {
            int[] t = new int[tokens];
            t[0] = frame[0];
            t[tokens - 1] = frame[frame.length - 1];
            for (int i = 1; i < tokens - 1; i++) {
                int id;
                do {
                    id = rnd.nextInt(m.vocabularySize());
                } while (Arrays.binarySearch(special, id) >= 0);
                t[i] = id;
            }
            if (masked && tokens > 2) t[1] = m.maskTokenId();
            rows.add(t);
        }
        GaussianStream g = new GaussianStream(batchSize * 31L + 7);
        // bare inputs: the same batch, encoded once and copied out of the module's reused buffers
        EncodedBatch eb = m.prepare(batch(rows, z(g, s.dimension())));
        FloatBuffer embeds = ByteBuffer.allocateDirect(eb.embeds().remaining() * 4).order(ByteOrder.nativeOrder())
                .asFloatBuffer().put(eb.embeds().duplicate());
        embeds.flip();
        LongBuffer mask = ByteBuffer.allocateDirect(eb.mask().remaining() * 8).order(ByteOrder.nativeOrder())
                .asLongBuffer().put(eb.mask().duplicate());
        mask.flip();
        OnnxSession session = m.session();
        double[] moduleTimes = new double[s.repetitions()];
        double[] bareTimes = new double[s.repetitions()];
        try (NDManager manager = session.newCallManager()) {
            NDList bareInputs = new NDList(
                    OnnxSession.wrap(manager, embeds, new Shape(eb.batch(), eb.seq(), eb.hidden()), DataType.FLOAT32,
                            RewrittenGraph.INPUTS_EMBEDS),
                    OnnxSession.wrap(manager, mask, new Shape(eb.batch(), eb.seq()), DataType.INT64,
                            RewrittenGraph.ATTENTION_MASK));
            long[] maskPositions = m.maskPositions(eb);
            if (maskPositions != null) {
                bareInputs.add(OnnxSession.wrap(manager, LongBuffer.wrap(maskPositions), new Shape(eb.batch()),
                        DataType.INT64, MaskedLmGather.MASK_POSITIONS));
            }
            for (int i = 0; i < s.warmup() + s.repetitions(); i++) {
                List<ScoreRow> calls = batch(rows, z(g, s.dimension()));
                long module;
                long bare;
                if (i % 2 == 0) { // alternate which one goes first, so neither always follows the other
                    module = timeModule(m, calls);
                    bare = timeBare(session, bareInputs);
                } else {
                    bare = timeBare(session, bareInputs);
                    module = timeModule(m, calls);
                }
                if (i >= s.warmup()) {
                    moduleTimes[i - s.warmup()] = module / 1e9;
                    bareTimes[i - s.warmup()] = bare / 1e9;
                }
            }
        }
        double mod = median(moduleTimes);
        double bare = median(bareTimes);
        return new ModelCheckResult.Throughput(batchSize, batchSize / mod, batchSize / bare, bare / mod,
                mod * 1e3, bare * 1e3);
    }

    private static long timeModule(PromptModel m, List<ScoreRow> calls) {
        long t0 = System.nanoTime();
        m.score(calls);
        return System.nanoTime() - t0;
    }

    private static long timeBare(OnnxSession session, NDList inputs) {
        long t0 = System.nanoTime();
        session.forward(inputs).close();
        return System.nanoTime() - t0;
    }

    /** Gets the prompt expansion and batch encoding compiled before anything is timed. */
    private static void warmUpJit(PromptModel m, Settings s) {
        GaussianStream g = new GaussianStream(99);
        List<int[]> one = List.of(m.encode("warm up"));
        for (int i = 0; i < 10; i++) m.prepare(batch(one, z(g, s.dimension())));
    }

    private static List<ScoreRow> batch(List<int[]> rows, double[] z) {
        List<ScoreRow> out = new ArrayList<>(rows.size());
        for (int[] t : rows) out.add(new ScoreRow(z, t));
        return out;
    }

    private static double[] z(GaussianStream g, int d) {
        double[] z = new double[d];
        for (int i = 0; i < d; i++) z[i] = g.next();
        return z;
    }

    private static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        int n = c.length;
        return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    }
}
