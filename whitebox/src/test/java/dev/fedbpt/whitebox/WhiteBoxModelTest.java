package dev.fedbpt.whitebox;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.inference.HeadSpec;
import dev.fedbpt.inference.ModelOptions;
import dev.fedbpt.inference.ModelSource;
import dev.fedbpt.inference.PromptModel;
import dev.fedbpt.inference.PromptSpec;
import dev.fedbpt.inference.ScoreRow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The PyTorch rebuild of the bundled encoder against the ONNX Runtime path, and its gradients. */
class WhiteBoxModelTest {
    static final HeadSpec.Similarity HEAD = WhiteBoxCheck.PROBE_HEAD;
    static final String[] TEXTS = {"a gripping, funny and moving film", "dull.",
            "the plot is thin but the actors carry it with charm and wit to the very end", "not good"};

    static WhiteBoxModel torch;
    static PromptModel onnx;

    @BeforeAll
    static void load() throws Exception {
        torch = WhiteBoxModel.load(ModelSource.bundled(), HEAD, WhiteBoxModel.Precision.FLOAT32);
        onnx = PromptModel.load(ModelSource.bundled(), new PromptSpec(4, 10, 3L, PromptSpec.Injection.PREPEND), HEAD,
                ModelOptions.defaults().withIntraOpThreads(1));
    }

    @AfterAll
    static void close() {
        torch.close();
        onnx.close();
    }

    static List<int[]> rows(WhiteBoxModel m) {
        List<int[]> rows = new ArrayList<>();
        for (String t : TEXTS) rows.add(m.encode(t));
        return rows;
    }

    @Test
    void classScoresAgreeWithOnnxRuntimeWithAndWithoutASoftPrompt() {
        List<int[]> rows = rows(torch);
        for (int i = 0; i < rows.size(); i++) assertArrayEquals(onnx.encode(TEXTS[i]), rows.get(i), "same tokens");
        double[] soft = WhiteBoxCheck.gaussian(4 * torch.hiddenSize(), 0.05, 7);
        double[] diffs = WhiteBoxCheck.differencesFromOnnx(onnx, torch, rows, soft);
        assertTrue(diffs[0] < 1e-4, "without a prompt: max abs diff " + diffs[0]);
        assertTrue(diffs[1] < 1e-4, "with a soft prompt: max abs diff " + diffs[1]);
    }

    @Test
    void aTokenPromptIsLeftOutOfThePoolingOnBothBackends() throws Exception {
        int[] prompt = {2307, 2204, 6517, 1996, 2009}; // great, good, sad, the, it
        List<ScoreRow> tokenRows = new ArrayList<>();
        List<ScoreRow> pooledRows = new ArrayList<>();
        for (int[] row : rows(torch)) {
            int[] withPrompt = new Prompt.Tokens(prompt).insertInto(row);
            tokenRows.add(new ScoreRow(null, withPrompt, null, null, prompt.length));
            pooledRows.add(ScoreRow.withoutPrompt(withPrompt)); // the tokens read as the row's own text
        }
        float[][] onnxLeftOut = onnx.score(tokenRows);
        float[][] torchLeftOut = torch.score(tokenRows);
        double diff = 0;
        for (int r = 0; r < onnxLeftOut.length; r++) {
            for (int c = 0; c < onnxLeftOut[r].length; c++) {
                diff = Math.max(diff, Math.abs(onnxLeftOut[r][c] - torchLeftOut[r][c]));
            }
        }
        assertTrue(diff < 1e-4, "ONNX Runtime and the PyTorch rebuild: max abs diff " + diff);
        float[][] pooled = onnx.score(pooledRows);
        for (int r = 0; r < pooled.length; r++) {
            assertFalse(Arrays.equals(pooled[r], onnxLeftOut[r]), "row " + r + ": the prompt's positions are not pooled");
        }
        var pooling = new HeadSpec.Similarity(HEAD.labelDescriptions(), HEAD.temperature(), HEAD.pooling(), true);
        try (PromptModel legacy = PromptModel.load(ModelSource.bundled(), new PromptSpec(4, 10, 3L,
                PromptSpec.Injection.PREPEND), pooling, ModelOptions.defaults().withIntraOpThreads(1))) {
            float[][] legacyScores = legacy.score(tokenRows);
            for (int r = 0; r < pooled.length; r++) {
                assertArrayEquals(pooled[r], legacyScores[r], "row " + r + ": the pooling reading, to the bit");
            }
        }
    }

    @Test
    void aRowsScoresDoNotDependOnItsBatchWithAPrefixAndASoftPrompt() {
        // padding is masked out of every layer's keys, the prefix is not: a short row alone and beside a long one
        int np = 3;
        Prompt.Deep prompt = new Prompt.Deep(2, WhiteBoxCheck.gaussian(2 * torch.hiddenSize(), 0.1, 4), np,
                WhiteBoxCheck.gaussian(torch.layers() * 2 * np * torch.hiddenSize(), 0.3, 5));
        List<int[]> rows = rows(torch);
        float[][] batch = torch.score(prompt, rows);
        float[][] alone = torch.score(prompt, List.of(rows.get(1)));
        float[][] bare = torch.score((Prompt) null, List.of(rows.get(1)));
        for (int c = 0; c < alone[0].length; c++) {
            assertEquals(alone[0][c], batch[1][c], 1e-4, "class " + c);
        }
        assertTrue(Math.abs(alone[0][0] - bare[0][0]) > 1e-3, "the prompt changes the scores");
    }

    @Test
    void aMaskedLayersPrefixIsNotRead() {
        // The prefix still shifts the rows' positions (as P-tuning v2's code does), so a masked prefix is compared
        // with another masked prefix of other values, not with no prefix.
        int np = 2;
        int size = torch.layers() * 2 * np * torch.hiddenSize();
        Prompt.Deep prompt = Prompt.Deep.prefix(np, WhiteBoxCheck.gaussian(size, 0.3, 6));
        Prompt.Deep other = Prompt.Deep.prefix(np, WhiteBoxCheck.gaussian(size, 0.3, 7));
        List<int[]> rows = rows(torch);
        int[] every = java.util.stream.IntStream.range(0, torch.layers()).toArray();
        float[][] hidden = torch.score(prompt.masking(every), rows);
        float[][] otherHidden = torch.score(other.masking(every), rows);
        float[][] open = torch.score(prompt, rows);
        float[][] one = torch.score(prompt.masking(new int[] {0}), rows);
        for (int r = 0; r < rows.size(); r++) {
            assertArrayEquals(hidden[r], otherHidden[r], 1e-6f, "row " + r + ": the values of a prefix no layer reads");
        }
        assertTrue(Math.abs(open[0][0] - one[0][0]) > 1e-5 && Math.abs(hidden[0][0] - one[0][0]) > 1e-5,
                "masking one layer is neither the whole prefix nor none: " + open[0][0] + " " + one[0][0] + " "
                        + hidden[0][0]);
    }

    @Test
    void layerKernelsAreEachLayersCosineSimilaritiesBetweenTheRows() {
        List<int[]> all = rows(torch);
        List<int[]> rows = List.of(all.get(0), all.get(1), all.get(0));
        double[][][] k = torch.layerKernels(rows);
        assertEquals(torch.layers(), k.length);
        for (double[][] layer : k) {
            assertEquals(3, layer.length);
            for (int i = 0; i < 3; i++) {
                assertEquals(1.0, layer[i][i], 1e-5, "a row with itself");
                for (int j = 0; j < 3; j++) assertEquals(layer[i][j], layer[j][i], 1e-12, "symmetric");
            }
            assertEquals(1.0, layer[0][2], 1e-5, "the same row twice, the same padding");
            assertTrue(layer[0][1] < 0.999, "two different rows: " + layer[0][1]);
        }
    }

    @Test
    void refusesPromptsOfTheWrongShapeAndLabelsOutOfRange() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> torch.score(Prompt.Deep.input(2, new double[5]), rows(torch)));
        assertTrue(e.getMessage().contains("needs " + 2 * torch.hiddenSize()), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> torch.lossAndGradient(Prompt.Deep.input(1, new double[torch.hiddenSize()]), rows(torch), new int[]{0, 1, 2, 0}));
        assertThrows(IllegalArgumentException.class,
                () -> torch.lossAndGradient(Prompt.Deep.input(1, new double[torch.hiddenSize()]), rows(torch), new int[]{0, 1}));
    }

    /**
     * Autograd keeps every scalar operand for the backward pass. DJL's {@code mul/div(Number)} hand it a Java buffer
     * and free that at once, so with a collector running, every gradient here came out NaN (and, more rarely, off in
     * its last bits) until the scalars were made libtorch's own ({@link TorchEncoder#scalar}).
     */
    @Test
    void gradientsKeepTheirBitsWhileTheGarbageCollectorRuns() throws Exception {
        int h = torch.hiddenSize();
        Prompt.Deep prompt = new Prompt.Deep(2, WhiteBoxCheck.gaussian(2 * h, 0.1, 3), 2,
                WhiteBoxCheck.gaussian(torch.layers() * 2 * 2 * h, 0.3, 9));
        int[] labels = {1, 0, 1, 0};
        Gradient quiet = torch.lossAndGradient(prompt, rows(torch), labels);
        try (Collector collector = new Collector()) {
            for (int k = 0; k < 8; k++) {
                Gradient g = torch.lossAndGradient(prompt, rows(torch), labels);
                assertEquals(quiet.loss(), g.loss());
                assertArrayEquals(quiet.input(), g.input(), "soft prompt's gradient, call " + k);
                assertArrayEquals(quiet.prefix(), g.prefix(), "prefix's gradient, call " + k);
            }
        }
    }

    /**
     * What lets the pytorch backend run several inference workers (each with a model of its own): a gradient's bits
     * do not depend on what another model computes meanwhile. Different prompts and batch shapes, computed by two
     * models at once (asked from four threads) while a collector runs, against the same calls one by one.
     */
    @Test
    void gradientsComputedByTwoModelsAtOnceAreTheOnesComputedOneByOne() throws Exception {
        int calls = Integer.getInteger("fedbpt.test.concurrentGradients", 48);
        int h = torch.hiddenSize();
        List<int[]> all = rows(torch);
        List<Prompt.Deep> prompts = new ArrayList<>();
        List<List<int[]>> batches = new ArrayList<>();
        List<int[]> labels = new ArrayList<>();
        List<Gradient> expected = new ArrayList<>();
        for (int k = 0; k < calls; k++) {
            prompts.add(new Prompt.Deep(k % 3, WhiteBoxCheck.gaussian((k % 3) * h, 0.1, 100 + k), 1 + k % 2,
                    WhiteBoxCheck.gaussian(torch.layers() * 2 * (1 + k % 2) * h, 0.3, 200 + k)));
            int size = 1 + k % all.size();
            List<int[]> batch = new ArrayList<>();
            int[] y = new int[size];
            for (int r = 0; r < size; r++) {
                batch.add(all.get((k + r) % all.size()));
                y[r] = (k + r) % 2;
            }
            batches.add(batch);
            labels.add(y);
            expected.add(torch.lossAndGradient(prompts.get(k), batch, y));
        }
        java.util.concurrent.ExecutorService askers = java.util.concurrent.Executors.newFixedThreadPool(4);
        try (WhiteBoxModel second = WhiteBoxModel.load(ModelSource.bundled(), HEAD, WhiteBoxModel.Precision.FLOAT32);
             Collector collector = new Collector()) {
            List<java.util.concurrent.Future<Gradient>> futures = new ArrayList<>();
            for (int k = 0; k < calls; k++) {
                int call = k;
                WhiteBoxModel m = k % 2 == 0 ? torch : second;
                futures.add(askers.submit(() -> m.lossAndGradient(prompts.get(call), batches.get(call),
                        labels.get(call))));
            }
            for (int k = 0; k < calls; k++) {
                Gradient g = futures.get(k).get();
                assertEquals(expected.get(k).loss(), g.loss(), "loss of call " + k);
                assertArrayEquals(expected.get(k).input(), g.input(), "soft prompt's gradient, call " + k);
                assertArrayEquals(expected.get(k).prefix(), g.prefix(), "prefix's gradient, call " + k);
            }
        } finally {
            askers.shutdown();
        }
    }

    /** A thread that asks for a garbage collection every 5 ms until closed. */
    static final class Collector implements AutoCloseable {
        private final java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        private final Thread thread = new Thread(() -> {
            while (!stop.get()) {
                System.gc();
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });

        Collector() {
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join();
        }
    }
}
