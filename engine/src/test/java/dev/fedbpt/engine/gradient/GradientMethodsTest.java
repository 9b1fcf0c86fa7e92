package dev.fedbpt.engine.gradient;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.LocalRounds;
import dev.fedbpt.engine.method.MapSettings;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.method.ModelFacts;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.PromptScorer;
import dev.fedbpt.engine.method.TokenEmbeddings;
import dev.fedbpt.engine.method.RoundUpdate;
import dev.fedbpt.engine.method.Upload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** FedPrompt and FedP-tuning as pure state machines, against a model whose loss is a known quadratic. */
class GradientMethodsTest {
    static final int HIDDEN = 4;
    static final int LAYERS = 2;

    static Map<String, String> settings() {
        Map<String, String> s = new HashMap<>();
        s.put("gradient.prompt-length", "3");
        s.put("gradient.first-token", "5");
        s.put("gradient.prefix-length", "2");
        s.put("gradient.prefix-init", "embedding");
        s.put("gradient.prefix-init-std", "1.0");
        s.put("gradient.local-epochs", "2");
        s.put("gradient.batch-size", "3");
        s.put("gradient.learning-rate", "0.05");
        s.put("gradient.weight-decay", "0.0");
        s.put("gradient.adam-eps", "1e-8");
        s.put("gradient.beta1", "0.9");
        s.put("gradient.beta2", "0.999");
        s.put("gradient.clip-norm", "1.0");
        s.put("gradient.fedp-tuning", "prefix");
        return s;
    }

    static ModelFacts facts() {
        float[] weights = new float[20 * HIDDEN];
        for (int i = 0; i < weights.length; i++) weights[i] = i / 10f;
        TokenEmbeddings e = new TokenEmbeddings(20, HIDDEN, weights);
        return new ModelFacts() {
            @Override
            public Vocabulary vocabulary() {
                return new Vocabulary(20, new int[]{0});
            }

            @Override
            public TokenEmbeddings embeddings() {
                return e;
            }

            @Override
            public int layers() {
                return LAYERS;
            }
        };
    }

    static FederatedMethod method(String name) {
        return Methods.create(name, new MethodContext(new MapSettings(settings()), 3, 7L, facts()));
    }

    /** Loss = mean over the batch of ||p - target||^2 / 2 where target = the rows' label (a constant vector). */
    static PromptScorer quadratic(List<Integer> batchSizes) {
        return new PromptScorer() {
            @Override
            public float[][] score(Prompt prompt, List<int[]> rows) {
                throw new AssertionError("training asks for gradients only");
            }

            @Override
            public Gradient lossAndGradient(Prompt.Deep prompt, List<int[]> rows, int[] labels) {
                batchSizes.add(rows.size());
                double target = 0;
                for (int label : labels) target += label;
                target /= labels.length;
                double loss = 0;
                double[] gi = new double[prompt.input() == null ? 0 : prompt.input().length];
                double[] gp = new double[prompt.prefix() == null ? 0 : prompt.prefix().length];
                for (int i = 0; i < gi.length; i++) {
                    gi[i] = prompt.input()[i] - target;
                    loss += gi[i] * gi[i] / 2;
                }
                for (int i = 0; i < gp.length; i++) {
                    gp[i] = prompt.prefix()[i] - target;
                    loss += gp[i] * gp[i] / 2;
                }
                return new Gradient(loss, gi, gp);
            }
        };
    }

    static LocalData data(int rows) {
        List<int[]> ids = new ArrayList<>();
        int[] labels = new int[rows];
        for (int i = 0; i < rows; i++) {
            ids.add(new int[]{1, 10 + i, 2});
            labels[i] = 1;
        }
        return new LocalData(ids, labels, 2);
    }

    /** The code's reading starts the prefix N(0, 0.02^2) whatever prefix-init-std says; the embedding's reads it. */
    @Test
    void thePrefixStartsAsTheReadingSays() {
        Map<String, String> s = settings();
        s.put("gradient.prefix-init", "code");
        assertEquals(0.02, GradientConfig.from(new MapSettings(s)).prefixInitStd());
        float[] prefix = InitialPrompt.prefix(new PromptLayout(0, 20, HIDDEN, LAYERS),
                GradientConfig.from(new MapSettings(s)).prefixInitStd(), 7L);
        double sumSquares = 0;
        for (float v : prefix) sumSquares += v * v;
        assertEquals(0.02, Math.sqrt(sumSquares / prefix.length), 0.002, "the drawn prefix's spread");
        s.put("gradient.prefix-init", "embedding");
        assertEquals(1.0, GradientConfig.from(new MapSettings(s)).prefixInitStd());
    }

    @Test
    void adamWFirstStepMovesEachParameterByTheLearningRateAfterWeightDecay() {
        AdamW adam = new AdamW(new AdamW.Settings(0.1, 0.5, 0.0, 0.9, 0.999), 2);
        double[] p = {1.0, -2.0};
        adam.step(p, new double[]{3.0, -0.25});
        // decoupled decay p * (1 - lr * wd), then lr * m_hat / sqrt(v_hat) = lr * sign(g) on the first step
        assertEquals(1.0 * 0.95 - 0.1, p[0], 1e-12);
        assertEquals(-2.0 * 0.95 + 0.1, p[1], 1e-12);
    }

    @Test
    void clippingScalesTheWholeGradientToTheMaximumNorm() {
        double[] g = {3.0, 4.0};
        assertEquals(5.0, AdamW.clip(g, 1.0), 1e-12);
        assertEquals(1.0, Math.hypot(g[0], g[1]), 1e-6);
        assertEquals(4.0 / 3.0, g[1] / g[0], 1e-12, "direction kept");
        double[] small = {0.3, 0.4};
        AdamW.clip(small, 1.0);
        assertArrayEquals(new double[]{0.3, 0.4}, small, "a gradient inside the ball stays as it is");
    }

    @Test
    void aClientTrainsItsEpochsInMinibatchesAndMovesTowardsLowerLoss() {
        FederatedMethod method = method("fedp-tuning");
        PromptState start = (PromptState) method.initialize();
        assertEquals(LAYERS * 2 * 2 * HIDDEN, start.params().length);
        List<Integer> batches = new ArrayList<>();
        ClientTask task = new ClientTask(0, 0, data(7), new Vocabulary(20, new int[]{0}), 7L, null);
        ClientProcedure.Finished finished = LocalRounds.runClient(method.client(start, task), quadratic(batches));
        assertEquals(List.of(3, 3, 1, 3, 3, 1), batches, "2 epochs of 7 rows in batches of 3");
        ParamsUpload upload = assertInstanceOf(ParamsUpload.class, finished.upload());
        assertEquals(7, upload.sampleCount());
        double before = 0;
        double after = 0;
        for (int i = 0; i < start.params().length; i++) {
            before += Math.abs(start.params()[i] - 1);
            after += Math.abs(upload.params()[i] - 1);
        }
        assertTrue(after < before, "the parameters moved towards the labels' target: " + before + " -> " + after);
        ClientProcedure.Finished again = LocalRounds.runClient(method.client(start, task), quadratic(new ArrayList<>()));
        assertArrayEquals(upload.params(), ((ParamsUpload) again.upload()).params(), "seeded: the same bytes");
    }

    @Test
    void fedPTuningAsFedBptsCodeTrainsTheEncoderThatMakesTheInputPrompt() {
        Map<String, String> s = settings();
        s.put("gradient.fedp-tuning", "prompt-encoder");
        FederatedMethod method = Methods.create("fedp-tuning", new MethodContext(new MapSettings(s), 3, 7L, facts()));
        PromptState start = (PromptState) method.initialize();
        PromptEncoder encoder = new PromptEncoder(3, HIDDEN);
        assertArrayEquals(encoder.initialParameters(7L), start.params(), "PyTorch's initialisation from the seed");
        assertEquals((Integer) start.params().length, method.resultFields().get("trainable_parameters"));
        assertEquals("prompt-encoder", method.resultFields().get("trains"));
        Prompt.Deep prompt = (Prompt.Deep) method.evaluationPrompt(start);
        assertEquals(3, prompt.inputLength());
        assertEquals(0, prompt.prefixLength());
        assertArrayEquals(encoder.forward(PromptLayout.widen(start.params())).prompt(), prompt.input(),
                "the prompt is the encoder's output");
        ClientTask task = new ClientTask(0, 0, data(7), new Vocabulary(20, new int[]{0}), 7L, null);
        ParamsUpload upload = (ParamsUpload) LocalRounds.runClient(method.client(start, task),
                quadratic(new ArrayList<>())).upload();
        assertEquals(start.params().length, upload.params().length, "the whole encoder travels");
        double before = distance(encoder.forward(PromptLayout.widen(start.params())).prompt(), 1);
        double after = distance(encoder.forward(PromptLayout.widen(upload.params())).prompt(), 1);
        assertTrue(after < before, "the encoder's prompt moved towards the target: " + before + " -> " + after);
    }

    private static double distance(double[] values, double target) {
        double sum = 0;
        for (double v : values) sum += (v - target) * (v - target);
        return Math.sqrt(sum);
    }

    @Test
    void fedPromptStartsFromWordEmbeddingsAndFedAvgWeighsClientsByTheirRows() {
        FederatedMethod method = method("fedprompt");
        PromptState start = (PromptState) method.initialize();
        assertArrayEquals(facts().embeddings().row(5), java.util.Arrays.copyOfRange(start.params(), 0, HIDDEN));
        assertArrayEquals(facts().embeddings().row(7), java.util.Arrays.copyOfRange(start.params(), 2 * HIDDEN,
                3 * HIDDEN));
        float[] a = new float[start.params().length];
        float[] b = new float[start.params().length];
        java.util.Arrays.fill(a, 1f);
        java.util.Arrays.fill(b, 4f);
        List<Upload> uploads = List.of(new ParamsUpload(0, 3, 0.1, 3, b), new ParamsUpload(0, 1, 0.1, 1, a));
        PromptState next = (PromptState) method.aggregate(start, uploads);
        assertEquals(1, next.round());
        for (float v : next.params()) assertEquals(3.25f, v, "(1 x 1 + 3 x 4) / 4");
        assertNotNull(method.screen(start, new ParamsUpload(0, 1, 0.1, 1, new float[2])));
        float[] bad = a.clone();
        bad[0] = Float.NaN;
        assertNotNull(method.screen(start, new ParamsUpload(0, 1, 0.1, 1, bad)));
        assertEquals(null, method.screen(start, uploads.get(0)));
        long bytes = RoundUpdate.payloadSize(uploads.get(0));
        assertTrue(bytes > 4L * a.length && bytes < 4L * a.length + 64, "float32 parameters and a header: " + bytes);
        Prompt.Deep prompt = (Prompt.Deep) method.evaluationPrompt(next);
        assertEquals(3, prompt.inputLength());
        assertEquals(0, prompt.prefixLength());
    }

    @Test
    void payloadsRoundTripBitForBit() {
        GradientPayloads codec = new GradientPayloads();
        PromptState state = new PromptState(4, new float[]{1.5f, -0f, Float.MIN_VALUE});
        PromptState back = (PromptState) codec.decode(codec.encode(state));
        assertEquals(4, back.round());
        assertArrayEquals(state.params(), back.params());
        ParamsUpload upload = new ParamsUpload(2, 9, 0.25, 12, new float[]{3f, 2f});
        ParamsUpload up = (ParamsUpload) codec.decode(codec.encode(upload));
        assertEquals(9, up.clientId());
        assertEquals(0.25, up.loss());
        assertArrayEquals(upload.params(), up.params());
        assertThrows(IllegalArgumentException.class, () -> codec.decode(new byte[]{9}));
    }

    @Test
    void aDeepPromptChecksItsShape() {
        Prompt.Deep deep = new Prompt.Deep(1, new double[HIDDEN], 1, new double[LAYERS * 2 * HIDDEN]);
        deep.checkShape(HIDDEN, LAYERS);
        assertThrows(IllegalArgumentException.class, () -> deep.checkShape(HIDDEN, LAYERS + 1));
        assertThrows(IllegalArgumentException.class, () -> new Prompt.Deep(0, null, 0, null));
        assertThrows(IllegalArgumentException.class, () -> new Prompt.Deep(2, null, 0, null));
    }
}
