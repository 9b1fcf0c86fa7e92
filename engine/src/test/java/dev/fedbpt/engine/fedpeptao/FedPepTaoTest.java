package dev.fedbpt.engine.fedpeptao;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.gradient.GradientConfig;
import dev.fedbpt.engine.gradient.PromptLayout;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.LocalRounds;
import dev.fedbpt.engine.method.MapSettings;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.method.ModelFacts;
import dev.fedbpt.engine.method.Participation;
import dev.fedbpt.engine.method.Payload;
import dev.fedbpt.engine.method.PayloadCodec;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.PromptScorer;
import dev.fedbpt.engine.method.SettingException;
import dev.fedbpt.engine.method.TokenEmbeddings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** FedPepTAO's Algorithm 2 as a pure state machine, against a model whose loss is a known quadratic. */
class FedPepTaoTest {
    static final int HIDDEN = 2;
    static final int LAYERS = 3;
    static final int ROUNDS = 3;
    static final double[] NONE = new double[0];

    static Map<String, String> settings(String selected) {
        Map<String, String> s = new HashMap<>();
        s.put("gradient.prompt-length", "1");
        s.put("gradient.first-token", "1");
        s.put("gradient.prefix-length", "1");
        s.put("gradient.prefix-init", "embedding");
        s.put("gradient.prefix-init-std", "1.0");
        s.put("gradient.local-epochs", "1");
        s.put("gradient.batch-size", "2");
        s.put("gradient.learning-rate", "0.05");
        s.put("gradient.weight-decay", "0.1");
        s.put("gradient.adam-eps", "1e-8");
        s.put("gradient.beta1", "0.9");
        s.put("gradient.beta2", "0.999");
        s.put("gradient.clip-norm", "1.0");
        s.put("gradient.fedp-tuning", "prefix");
        s.put("federation.clients", "4");
        s.put("fedpeptao.selected-layers", selected);
        s.put("fedpeptao.warm-up-rounds", "2");
        s.put("fedpeptao.lanczos-steps", "3");
        s.put("fedpeptao.hvp-step", "1.0");
        s.put("fedpeptao.server-lr", "0.05");
        s.put("fedpeptao.server-lr-decay", "0.99");
        s.put("fedpeptao.server-lr-floor", "1e-4");
        s.put("fedpeptao.momentum", "0.9");
        s.put("fedpeptao.gg-sign", "code");
        s.put("fedpeptao.step-base", "average");
        s.put("fedpeptao.adam-state", "persist");
        s.put("fedpeptao.control-weights", "steps");
        s.put("fedpeptao.device-steps", "chained");
        s.put("fedpeptao.unselected-layers", "masked");
        return s;
    }

    /** The global prefix is scored as the code's non-personalised path scores it: unselected layers hidden. */
    @Test
    void theGlobalPrefixIsScoredWithItsUnselectedLayersMasked() {
        Map<String, String> s = settings("0,2");
        FederatedMethod method = method(s);
        Prompt.Deep prompt = (Prompt.Deep) method.evaluationPrompt(method.initialize());
        assertArrayEquals(new int[] {1}, prompt.maskedPrefixLayers(), "layer 1 of 3 is not federated");
        s.put("fedpeptao.unselected-layers", "start");
        Prompt.Deep start = (Prompt.Deep) method(s).evaluationPrompt(method(s).initialize());
        assertEquals(0, start.maskedPrefixLayers().length);
        assertArrayEquals(start.prefix(), prompt.prefix(), "the same values, only hidden");
        Prompt.Deep all = (Prompt.Deep) method(settings("0,1,2")).evaluationPrompt(method(settings("0,1,2"))
                .initialize());
        assertEquals(0, all.maskedPrefixLayers().length, "every layer federated: nothing to hide");
    }

    static ModelFacts facts() {
        TokenEmbeddings e = new TokenEmbeddings(8, HIDDEN, new float[8 * HIDDEN]);
        return new ModelFacts() {
            @Override
            public Vocabulary vocabulary() {
                return new Vocabulary(8, new int[]{0});
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

    static FederatedMethod method(Map<String, String> settings) {
        return Methods.create("fedpeptao", new MethodContext(new MapSettings(settings), ROUNDS, 7L, facts()));
    }

    /** Loss = ||p - label||^2 / 2 averaged over the batch's labels; scores say "class 1" when p's mean is above 0.5. */
    static PromptScorer quadratic() {
        return new PromptScorer() {
            @Override
            public float[][] score(Prompt prompt, List<int[]> rows) {
                double[] p = ((Prompt.Deep) prompt).prefix();
                double mean = 0;
                for (double v : p) mean += v / p.length;
                float[][] out = new float[rows.size()][];
                for (int r = 0; r < out.length; r++) out[r] = mean > 0.5 ? new float[]{0, 1} : new float[]{1, 0};
                return out;
            }

            @Override
            public Gradient lossAndGradient(Prompt.Deep prompt, List<int[]> rows, int[] labels) {
                double target = 0;
                for (int label : labels) target += (double) label / labels.length;
                double[] g = new double[prompt.prefix().length];
                double loss = 0;
                for (int i = 0; i < g.length; i++) {
                    g[i] = prompt.prefix()[i] - target;
                    loss += g[i] * g[i] / 2;
                }
                return new Gradient(loss, new double[0], g);
            }
        };
    }

    /** Device k's rows all carry label k % 2: devices pull their prefixes apart. */
    static List<LocalData> devices(int count) {
        List<LocalData> out = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            List<int[]> ids = new ArrayList<>();
            int[] labels = new int[3 + k];
            for (int i = 0; i < labels.length; i++) {
                ids.add(new int[]{1, 3 + i, 2});
                labels[i] = k % 2;
            }
            out.add(new LocalData(ids, labels, 2));
        }
        return out;
    }

    static LocalRounds.Outcome run(Map<String, String> settings) {
        List<LocalData> data = devices(4);
        return LocalRounds.run(method(settings), 7L, ROUNDS + 1, 0.75, data, data,
                new Participation(4, new int[]{3}, ROUNDS), new Vocabulary(8, new int[]{0}), quadratic(), false);
    }

    @Test
    void theServerStepIsTheCodesArithmetic() {
        PepTaoConfig c = PepTaoConfig.from(new MapSettings(settings("all")));
        double lr = 0.05;
        double[] old = {1.0};
        // two devices of 2 and 6 rows, 3 and 5 local steps
        List<PepTaoUpload> uploads = List.of(new PepTaoUpload(0, 0, 0, 2, 3, new float[]{0.5f}, NONE),
                new PepTaoUpload(0, 1, 0, 6, 5, new float[]{0.75f}, NONE));
        ServerStep.Next first = ServerStep.apply(c, lr, old, new double[1], new double[1], null, 0.05,
                new TreeMap<>(), uploads);
        double avg = 0.25 * 0.5 + 0.75 * 0.75;
        double c0 = (1.0 - 0.5) / (3 * lr);
        double c1 = (1.0 - 0.75) / (5 * lr);
        double cg = (2.0 / 4) * (3 * c0 + 5 * c1) / 8;
        assertEquals(avg, first.global()[0], 1e-15, "round 1 is FedAvg alone");
        assertEquals(1.0 - avg, first.deltaPrev()[0], 1e-15, "Delta = w_old - w_avg");
        assertEquals(c0, first.ci().get(0)[0], 1e-12);
        assertEquals(c1, first.ci().get(1)[0], 1e-12);
        assertEquals(cg, first.cg()[0], 1e-12);
        assertEquals(0.05, first.eta());

        // round 2: device 0 alone, from the first round's global
        double old2 = first.global()[0];
        List<PepTaoUpload> second = List.of(new PepTaoUpload(1, 0, 0, 2, 4, new float[]{0.25f}, NONE));
        ServerStep.Next next = ServerStep.apply(c, lr, new double[]{old2}, first.cg(), first.m(), first.deltaPrev(),
                first.eta(), first.ci(), second);
        double delta2 = old2 - 0.25;
        double c0b = c0 - cg + (old2 - 0.25) / (4 * lr);
        double cg2 = cg + (1.0 / 4) * (4 * (c0b - c0)) / 4;
        double eta2 = 0.99 * 0.05;
        double gg = (1.0 - avg) - delta2;
        double m0 = 0.9 * 0 + 0.1 * gg + cg2 - c0b;
        assertEquals(eta2, next.eta(), 1e-15);
        assertEquals(c0b, next.ci().get(0)[0], 1e-12);
        assertEquals(c1, next.ci().get(1)[0], 1e-12, "a device not sampled keeps its control variate");
        assertEquals(cg2, next.cg()[0], 1e-12);
        assertEquals(m0, next.m()[0], 1e-12);
        assertEquals(0.25 - eta2 * m0, next.global()[0], 1e-12, "the momentum step starts from the FedAvg result");

        // the paper's readings: g_g's sign flips, the step starts from w_old, c_g weighs rows
        Map<String, String> paper = settings("all");
        paper.put("fedpeptao.gg-sign", "paper");
        paper.put("fedpeptao.step-base", "previous");
        paper.put("fedpeptao.control-weights", "samples");
        paper.put("fedpeptao.device-steps", "independent");
        PepTaoConfig p = PepTaoConfig.from(new MapSettings(paper));
        ServerStep.Next firstPaper = ServerStep.apply(p, lr, old, new double[1], new double[1], null, 0.05,
                new TreeMap<>(), uploads);
        assertEquals(avg - 1.0, firstPaper.deltaPrev()[0], 1e-15);
        assertEquals((2.0 / 4) * (2 * c0 + 6 * c1) / 8, firstPaper.cg()[0], 1e-12);
        ServerStep.Next nextPaper = ServerStep.apply(p, lr, new double[]{old2}, firstPaper.cg(), firstPaper.m(),
                firstPaper.deltaPrev(), firstPaper.eta(), firstPaper.ci(), second);
        double ggPaper = (avg - 1.0) - (0.25 - old2);
        double c0Paper = c0 - firstPaper.cg()[0] + (old2 - 0.25) / (4 * lr);
        double cgPaper = firstPaper.cg()[0] + 0.25 * (2 * (c0Paper - c0)) / 2;
        double mPaper = 0.1 * ggPaper + cgPaper - c0Paper;
        assertEquals(old2 - eta2 * mPaper, nextPaper.global()[0], 1e-12);
    }

    @Test
    void theCodesDeviceStepsChainAndThePapersStartAlike() {
        double lr = 0.05;
        double[] old = {1.0};
        double[] m = {0.3};
        double[] deltaPrev = {0.2};
        double eta = 0.05;
        // devices 0 and 1 of 2 and 6 rows
        List<PepTaoUpload> uploads = List.of(new PepTaoUpload(1, 0, 0, 2, 3, new float[]{0.5f}, NONE),
                new PepTaoUpload(1, 1, 0, 6, 5, new float[]{0.75f}, NONE));
        Map<String, String> s = settings("all");
        ServerStep.Next chained = ServerStep.apply(PepTaoConfig.from(new MapSettings(s)), lr, old, new double[1], m,
                deltaPrev, eta, new TreeMap<>(), uploads);
        s.put("fedpeptao.device-steps", "independent");
        ServerStep.Next independent = ServerStep.apply(PepTaoConfig.from(new MapSettings(s)), lr, old,
                new double[1], m, deltaPrev, eta, new TreeMap<>(), uploads);

        double avg = 0.25 * 0.5 + 0.75 * 0.75;
        double gg = 0.2 - (1.0 - avg);
        double cg = chained.cg()[0];
        double c0 = chained.ci().get(0)[0];
        double c1 = chained.ci().get(1)[0];
        double step = 0.99 * eta;
        // the code: v_1 from the aggregate momentum, w_1 from the FedAvg result; device 1 from device 0's v and w
        double v0 = 0.9 * 0.3 + 0.1 * gg + cg - c0;
        double w0 = avg - step * v0;
        double v1 = 0.9 * v0 + 0.1 * gg + cg - c1;
        double w1 = w0 - step * v1;
        assertEquals(0.25 * w0 + 0.75 * w1, chained.global()[0], 1e-12);
        assertEquals(0.25 * v0 + 0.75 * v1, chained.m()[0], 1e-12, "global_v = sum p_k v_k");
        // the paper: both from the same start and momentum
        double m0 = 0.9 * 0.3 + 0.1 * gg + cg - c0;
        double m1 = 0.9 * 0.3 + 0.1 * gg + cg - c1;
        assertEquals(0.25 * (avg - step * m0) + 0.75 * (avg - step * m1), independent.global()[0], 1e-12);
        assertEquals(0.25 * m0 + 0.75 * m1, independent.m()[0], 1e-12);
        assertNotEquals(chained.global()[0], independent.global()[0], 1e-6);
    }

    @Test
    void devicesKeepTheirOwnLayersAndTheFederatedOnesComeFromTheServer() {
        LocalRounds.Outcome outcome = run(settings("1"));
        PepTaoState initial = (PepTaoState) outcome.initial();
        PepTaoState last = (PepTaoState) outcome.states().get(ROUNDS - 1);
        int per = 2 * HIDDEN;
        float[] global = last.global();
        for (int i = 0; i < per; i++) {
            assertEquals(initial.global()[i], global[i], "layer 0 is never federated");
            assertEquals(initial.global()[2 * per + i], global[2 * per + i], "nor is layer 2");
        }
        assertNotEquals(initial.global()[per], global[per], "layer 1 is");
        assertEquals(per, last.cg().length, "the server's bookkeeping covers the selected layer alone");
        // uploads carry the selected layer only, with the steps taken
        var upload = (PepTaoUpload) outcome.uploads().get(0).get(0);
        assertEquals(per, upload.selected().length);
        assertTrue(upload.steps() >= 2);
    }

    @Test
    void thePersonalisationRoundScoresEveryDeviceOnItsOwnTestRows() {
        LocalRounds.Outcome outcome = run(settings("1"));
        PepTaoState done = (PepTaoState) outcome.last();
        assertEquals(4, done.personal().size(), "held-out device 3 included");
        assertEquals(List.of(true, true, true, false),
                done.personal().stream().map(PersonalAccuracy::participant).toList());
        Map<String, Double> metrics = method(settings("1")).metrics(done);
        assertTrue(metrics.containsKey("p_accuracy") && metrics.containsKey("np_accuracy_pooled"), metrics.toString());
        // every device's rows carry one label and the scorer predicts one class per prompt: 0 or 1 per device
        for (PersonalAccuracy r : done.personal()) {
            assertTrue(r.correct() == 0 || r.correct() == r.testCount(), r.toString());
        }
    }

    @Test
    void adamMomentsLiveOnAcrossADevicesRoundsOnlyWhenTheyPersist() {
        FederatedMethod persist = method(settings("all"));
        Map<String, String> resetSettings = settings("all");
        resetSettings.put("fedpeptao.adam-state", "reset");
        List<LocalData> data = devices(2);
        LocalRounds.Outcome kept = LocalRounds.run(persist, 7L, 2, 1.0, data, new Vocabulary(8, new int[]{0}),
                quadratic(), false);
        LocalRounds.Outcome fresh = LocalRounds.run(method(resetSettings), 7L, 2, 1.0, data,
                new Vocabulary(8, new int[]{0}), quadratic(), false);
        assertNotEquals(((PepTaoState) kept.last()).global()[0], ((PepTaoState) fresh.last()).global()[0]);
        assertEquals(((PepTaoState) kept.states().get(0)).global()[0],
                ((PepTaoState) fresh.states().get(0)).global()[0], "identical until a device's second round");
    }

    @Test
    void everyPayloadRoundTripsToTheSameBytes() {
        LocalRounds.Outcome outcome = run(settings("0,2"));
        PayloadCodec codec = new PepTaoPayloads();
        List<Payload> payloads = new ArrayList<>(outcome.states());
        payloads.add(outcome.initial());
        payloads.addAll(outcome.uploads().get(0));
        payloads.addAll(outcome.uploads().get(ROUNDS));
        payloads.add(new PepTaoDownlink(2, null, 0, new float[]{1f, -2f}));
        payloads.add(new PepTaoDownlink(2, new int[]{0, 2}, 1, new float[]{1f, -2f}));
        payloads.add(new PersonalPrefix(1, new float[]{1f, 2f}, new float[0], new float[0], 0));
        payloads.add(new PersonalPrefix(2, new float[]{1f}, new float[]{0.5f}, new float[]{0.25f}, 3));
        payloads.add(new RatioUpload(3, 1, 0.5, 4, 0.25));
        LocalRounds.Outcome chosen = runAuto();
        payloads.addAll(chosen.states());
        payloads.addAll(chosen.uploads().get(0));
        payloads.addAll(chosen.uploads().get(2));
        for (Payload p : payloads) {
            byte[] bytes = codec.encode(p);
            assertArrayEquals(bytes, codec.encode(codec.decode(bytes)), p.getClass().getSimpleName());
        }
        assertNull(((PepTaoState) outcome.initial()).deltaPrev());
        assertThrows(IllegalArgumentException.class, () -> codec.decode(new byte[]{3, 0, 0}));
    }

    /** Device k's kernels: layer 0 all ones (rank one: the highest score), the others the identity. */
    static PromptScorer curvedQuadratic() {
        PromptScorer plain = quadratic();
        return new PromptScorer() {
            @Override
            public float[][] score(Prompt prompt, List<int[]> rows) {
                return plain.score(prompt, rows);
            }

            /** Loss sum_i c_l (p_i - label)^2 / 2 with c = 2, 0.5, -0.2 on layers 0, 1, 2: Hessian diag(c). */
            @Override
            public Gradient lossAndGradient(Prompt.Deep prompt, List<int[]> rows, int[] labels) {
                Gradient g = plain.lossAndGradient(prompt, rows, labels);
                double[] curved = g.prefix().clone();
                int per = curved.length / LAYERS;
                double[] c = {2.0, 0.5, -0.2};
                for (int i = 0; i < curved.length; i++) curved[i] *= c[i / per];
                return new Gradient(g.loss(), g.input(), curved);
            }

            @Override
            public double[][][] layerKernels(List<int[]> rows) {
                int b = rows.size();
                double[][][] k = new double[LAYERS][b][b];
                for (int l = 0; l < LAYERS; l++) {
                    for (int i = 0; i < b; i++) {
                        for (int j = 0; j < b; j++) k[l][i][j] = l == 0 || i == j ? 1 : 0;
                    }
                }
                return k;
            }
        };
    }

    /** "auto" with 2 warm-up rounds, a selection round, 2 training rounds and the personalisation round. */
    static LocalRounds.Outcome runAuto() {
        List<LocalData> data = devices(4);
        FederatedMethod method = Methods.create("fedpeptao", new MethodContext(new MapSettings(settings("auto")), 5,
                7L, facts()));
        return LocalRounds.run(method, 7L, 6, 0.75, data, data, new Participation(4, new int[]{3}, 5),
                new Vocabulary(8, new int[]{0}), curvedQuadratic(), false);
    }

    @Test
    void algorithmOneChoosesTheLayersAfterTheWarmUpAndTrainingStartsAfresh() {
        LocalRounds.Outcome outcome = runAuto();
        PepTaoState initial = (PepTaoState) outcome.initial();
        PepTaoState warm = (PepTaoState) outcome.states().get(1);
        assertNull(warm.selected(), "no layers chosen during the warm-up");
        assertEquals(3, warm.layerScores().size(), "every participant sampled in the warm-up reported its scores");
        assertEquals(LAYERS - 1, warm.layerScores().get(0).scores().length, "the last layer is not scored");
        assertTrue(warm.layerScores().get(0).scores()[0] > warm.layerScores().get(0).scores()[1],
                "a rank-one kernel scores above the identity");
        assertNotEquals(initial.global()[0], warm.global()[0], "the warm-up trains every layer");
        PepTaoState chosen = (PepTaoState) outcome.states().get(2);
        assertTrue(chosen.keepRatio() > 0 && chosen.keepRatio() <= 1, "keep ratio " + chosen.keepRatio());
        assertEquals(0, chosen.selected()[0], "layer 0 ranks first");
        assertEquals(3, chosen.restart());
        assertArrayEquals(initial.global(), chosen.global(), "Algorithm 2 starts from the initial prefix");
        assertEquals(RatioUpload.class, outcome.uploads().get(2).get(0).getClass());
        PepTaoState last = (PepTaoState) outcome.states().get(4);
        assertEquals(chosen.selected().length * 2 * HIDDEN, last.cg().length);
        assertEquals(4, ((PepTaoState) outcome.last()).personal().size());
        SettingException tooShort = assertThrows(SettingException.class, () -> Methods.create("fedpeptao",
                new MethodContext(new MapSettings(settings("auto")), 3, 7L, facts())));
        assertEquals("fedpeptao.warm-up-rounds", tooShort.key());
    }

    @Test
    void selectedLayersAreCheckedUnderTheirKey() {
        for (String bad : List.of("-1", "0,0", "one", "")) {
            SettingException e = assertThrows(SettingException.class, () -> PepTaoConfig.layers(bad));
            assertEquals("fedpeptao.selected-layers", e.key());
        }
        SettingException beyond = assertThrows(SettingException.class,
                () -> PepTaoConfig.from(new MapSettings(settings("1,3"))).selected(LAYERS));
        assertEquals("fedpeptao.selected-layers", beyond.key());
        assertArrayEquals(new int[]{0, 2}, PepTaoConfig.layers("2, 0"));
        assertArrayEquals(new int[]{0, 1, 2}, PepTaoConfig.from(new MapSettings(settings("all"))).selected(LAYERS));
        LayerSlice slice = new LayerSlice(new PromptLayout(0, 1, HIDDEN, LAYERS), new int[]{0, 2});
        float[] full = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        assertArrayEquals(new float[]{0, 1, 2, 3, 8, 9, 10, 11}, slice.cut(full));
        assertArrayEquals(new float[]{-1, -1, -1, -1, 4, 5, 6, 7, -1, -1, -1, -1},
                slice.put(full, new float[]{-1, -1, -1, -1, -1, -1, -1, -1}));
        assertEquals(GradientConfig.class, PepTaoConfig.from(new MapSettings(settings("all"))).local()
                .getClass());
    }
}
