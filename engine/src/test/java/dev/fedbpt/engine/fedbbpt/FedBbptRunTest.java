package dev.fedbpt.engine.fedbbpt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.LocalRounds;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.MapSettings;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.MethodEntry;
import dev.fedbpt.engine.method.ModelFacts;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.PromptScorer;
import dev.fedbpt.engine.method.RoundUpdate;
import dev.fedbpt.engine.method.Upload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Whole federated runs through the framework's reference loop, with a fake model. */
class FedBbptRunTest {
    private static final Vocabulary VOCAB = new Vocabulary(40, new int[] {0, 1, 2});
    private static final int[] TARGET = {5, 9, 3};
    private static final FedBbptPayloads CODEC = new FedBbptPayloads();

    /** Class 0's logit is 2 per prompt position holding its target token; every label is 0. */
    private static final PromptScorer MODEL = (prompt, rows) -> {
        int[] ids = ((Prompt.Tokens) prompt).ids();
        int matches = 0;
        for (int i = 0; i < TARGET.length; i++) {
            matches += ids[i] == TARGET[i] ? 1 : 0;
        }
        float[][] out = new float[rows.size()][2];
        for (float[] row : out) {
            row[0] = 2f * matches;
        }
        return out;
    };

    /** Three clients of 8, 8 and 12 rows over tokens 3..12. */
    private static List<LocalData> clients() {
        List<LocalData> clients = new ArrayList<>();
        int[] sizes = {8, 8, 12};
        for (int c = 0; c < sizes.length; c++) {
            List<int[]> rows = new ArrayList<>();
            for (int r = 0; r < sizes[c]; r++) {
                int[] row = new int[8];
                row[0] = 0;
                row[7] = 1;
                for (int p = 1; p < 7; p++) {
                    row[p] = 3 + (c * 7 + r * 3 + p * p) % 10;
                }
                rows.add(row);
            }
            clients.add(new LocalData(rows, new int[sizes[c]], 2));
        }
        return clients;
    }

    private static FedBbptConfig config(FedBbptConfig.AdamState adam, long budget) {
        return new FedBbptConfig(TARGET.length, 20, 10, 0.05, 0.1, 3, 8, budget, adam, FedBbptConfig.Weights.UNIFORM,
                FedBbptConfig.BDPL_PMI_THRESHOLD, FedBbptConfig.BDPL_MIN_COUNT);
    }

    private static LocalRounds.Outcome run(FedBbptConfig config, int rounds, boolean shuffle) {
        return LocalRounds.run(new FedBbptMethod("fed-bbpt", config), 11, rounds, 1.0, clients(), VOCAB, MODEL,
                shuffle);
    }

    private static List<byte[]> bytes(LocalRounds.Outcome outcome) {
        List<byte[]> out = new ArrayList<>();
        for (MethodState s : outcome.states()) {
            out.add(CODEC.encode(s));
        }
        return out;
    }

    @Test
    void theArgmaxPromptConvergesToTheTargetAndEveryCallIsCounted() {
        FedBbptMethod method = new FedBbptMethod("fed-bbpt", config(FedBbptConfig.AdamState.PERSIST, 8000));
        LocalRounds.Outcome outcome = run(method.config(), 21, false);
        FedBbptState afterCounts = (FedBbptState) outcome.states().get(0);
        assertEquals(10, afterCounts.candidates().length, "all 10 distinct tokens (fewer than N = 20)");
        assertEquals(0, afterCounts.apiCalls());
        FedBbptState last = (FedBbptState) outcome.last();
        assertArrayEquals(TARGET, ((Prompt.Tokens) method.evaluationPrompt(last)).ids());
        // 20 training rounds x I = 10 x (1 + 1 + 2) minibatches
        assertEquals(20L * 10 * (1 + 1 + 2), last.apiCalls());
        assertEquals(800.0, method.metrics(last).get("api_calls"));
        assertTrue(method.metrics(last).get("mean_max_probability") > 0.5);
        for (int t = 1; t < 21; t++) {
            List<Upload> uploads = outcome.uploads().get(t);
            assertEquals(List.of(10, 10, 20), uploads.stream().map(u -> ((ThetaUpload) u).apiCalls()).toList());
            for (Upload u : uploads) {
                assertNull(method.screen(outcome.states().get(t - 1), u), "round " + t);
                assertTrue(Double.isFinite(u.loss()));
                long bytes = RoundUpdate.payloadSize(u); // 3 x 10 probabilities as doubles and a header
                assertTrue(bytes > 8L * 3 * 10 && bytes < 8L * 3 * 10 + 64, bytes + " bytes");
            }
        }
        double firstLoss = outcome.uploads().get(1).get(0).loss();
        double lastLoss = outcome.uploads().get(20).get(0).loss();
        assertTrue(lastLoss < firstLoss, firstLoss + " -> " + lastLoss);
        assertEquals(0, outcome.nonFiniteCount());
    }

    @Test
    void theSameSeedGivesTheSameBytesWhateverTheClientOrder() {
        FedBbptConfig config = config(FedBbptConfig.AdamState.PERSIST, 8000);
        List<byte[]> first = bytes(run(config, 6, false));
        List<byte[]> again = bytes(run(config, 6, false));
        List<byte[]> shuffled = bytes(run(config, 6, true));
        for (int t = 0; t < first.size(); t++) {
            assertArrayEquals(first.get(t), again.get(t), "round " + t);
            assertArrayEquals(first.get(t), shuffled.get(t), "round " + t + " shuffled");
        }
        List<byte[]> otherSeed = bytes(LocalRounds.run(new FedBbptMethod("fed-bbpt", config), 12, 6, 1.0, clients(),
                VOCAB, MODEL, false));
        assertFalse(java.util.Arrays.equals(first.get(5), otherSeed.get(5)));
    }

    @Test
    void persistentAndResetMomentsDiffer() {
        LocalRounds.Outcome persist = run(config(FedBbptConfig.AdamState.PERSIST, 8000), 4, false);
        LocalRounds.Outcome reset = run(config(FedBbptConfig.AdamState.RESET, 8000), 4, false);
        // round 1 (the first training round) starts from fresh moments either way
        assertArrayEquals(CODEC.encode(persist.states().get(1)), CODEC.encode(reset.states().get(1)));
        assertFalse(java.util.Arrays.equals(CODEC.encode(persist.last()), CODEC.encode(reset.last())));
    }

    @Test
    void theMemoryKeepsMomentsOnlyWhenPersistentAndAlwaysTheCallsSpent() {
        for (FedBbptConfig.AdamState adam : FedBbptConfig.AdamState.values()) {
            FedBbptMethod method = new FedBbptMethod("fed-bbpt", config(adam, 8000));
            FedBbptState start = method.aggregate(method.initialize(), countsOf(method));
            ClientProcedure p = method.client(start, new ClientTask(2, 1, clients().get(2), VOCAB, 5, null));
            ClientProcedure.Finished done = LocalRounds.runClient(p, MODEL);
            ClientOptimizerState memory = assertInstanceOf(ClientOptimizerState.class, done.memory());
            assertEquals(20, memory.apiCalls());
            assertEquals(adam == FedBbptConfig.AdamState.PERSIST ? 2 : 0, memory.adamSteps());
            assertEquals(adam == FedBbptConfig.AdamState.PERSIST ? 3 : 0, memory.firstMoment().length);
            assertArrayEquals(CODEC.encode(memory), CODEC.encode(CODEC.decode(CODEC.encode(memory))));
        }
    }

    @Test
    void theBudgetStopsAClientAndTheStepThatReachesItIsNotApplied() {
        FedBbptMethod method = new FedBbptMethod("fed-bbpt", config(FedBbptConfig.AdamState.PERSIST, 25));
        FedBbptState start = method.aggregate(method.initialize(), countsOf(method));
        LocalData data = clients().get(2); // 12 rows: minibatches of 8 and 4
        List<LocalData> big = List.of(new LocalData(concat(data.tokenIds(), data.tokenIds()), new int[24], 2));

        // round 1: 24 rows = 3 minibatches; calls 10, 10, then only the 5 left; the third step is not applied
        ClientProcedure p = method.client(start, new ClientTask(0, 1, big.get(0), VOCAB, 5, null));
        List<Integer> asked = new ArrayList<>();
        FedBbptState afterTwo = null;
        while (p.next() instanceof ClientProcedure.ScorePrompts request) {
            asked.add(request.prompts().size());
            float[][][] scores = new float[request.prompts().size()][][];
            for (int k = 0; k < scores.length; k++) {
                scores[k] = MODEL.score(request.prompts().get(k), request.rows());
            }
            p.onScores(scores);
        }
        assertEquals(List.of(10, 10, 5), asked);
        ClientProcedure.Finished done = (ClientProcedure.Finished) p.next();
        ThetaUpload upload = (ThetaUpload) done.upload();
        ClientOptimizerState memory = (ClientOptimizerState) done.memory();
        assertEquals(25, upload.apiCalls());
        assertEquals(25, memory.apiCalls());
        assertEquals(2, memory.adamSteps());
        assertThrows(IllegalStateException.class, () -> {
            ClientProcedure q = method.client(start, new ClientTask(0, 1, big.get(0), VOCAB, 5, memory));
            q.onScores(new float[0][][]);
        });

        // round 2: the budget is spent, so the client asks nothing and uploads the downlink's theta
        FedBbptState round2 = method.aggregate(start, List.of(upload));
        ClientProcedure spent = method.client(round2, new ClientTask(0, 2, big.get(0), VOCAB, 5, memory));
        ClientProcedure.Finished none = assertInstanceOf(ClientProcedure.Finished.class, spent.next());
        ThetaUpload idle = (ThetaUpload) none.upload();
        assertEquals(0, idle.apiCalls());
        assertArrayEquals(CODEC.encode(new ThetaUpload(2, 0, upload.loss(), 24, round2.theta(), 0)),
                CODEC.encode(idle));
        assertEquals(25, method.aggregate(round2, List.of(idle)).apiCalls());
    }

    @Test
    void nonFiniteScoresAreCountedAndTheirStepSkipped() {
        FedBbptMethod method = new FedBbptMethod("fed-bbpt", config(FedBbptConfig.AdamState.PERSIST, 8000));
        FedBbptState start = method.aggregate(method.initialize(), countsOf(method));
        PromptScorer broken = (prompt, rows) -> {
            float[][] out = MODEL.score(prompt, rows);
            if (((Prompt.Tokens) prompt).ids()[0] != TARGET[0]) {
                out[0][1] = Float.NaN;
            }
            return out;
        };
        ClientProcedure p = method.client(start, new ClientTask(0, 1, clients().get(0), VOCAB, 5, null));
        ClientProcedure.Finished done = LocalRounds.runClient(p, broken);
        assertTrue(p.nonFiniteCount() > 0);
        ThetaUpload upload = (ThetaUpload) done.upload();
        assertEquals(10, upload.apiCalls());
        assertArrayEquals(CODEC.encode(new FedBbptState(0, start.candidates(), upload.theta(), 0)),
                CODEC.encode(new FedBbptState(0, start.candidates(), start.theta(), 0)), "theta unchanged");
        assertEquals(0, ((ClientOptimizerState) done.memory()).adamSteps());
    }

    @Test
    void aggregationAveragesInClientOrderAndWeighsBySamplesWhenAsked() {
        int[] candidates = {4, 6};
        FedBbptState global = new FedBbptState(3, candidates, new double[][] {{0.5, 0.5}}, 100);
        ThetaUpload a = new ThetaUpload(3, 0, 1, 1, new double[][] {{1, 0}}, 10);
        ThetaUpload b = new ThetaUpload(3, 5, 1, 3, new double[][] {{0, 1}}, 20);
        FedBbptConfig uniform = config(FedBbptConfig.AdamState.PERSIST, 8000);
        FedBbptState u = new FedBbptMethod("fed-bbpt", uniform).aggregate(global, List.of(b, a));
        assertArrayEquals(new double[] {0.5, 0.5}, u.theta()[0]);
        assertEquals(130, u.apiCalls());
        assertEquals(4, u.round());
        FedBbptConfig samples = new FedBbptConfig(1, 2, 10, 0.05, 0.1, 3, 8, 8000, FedBbptConfig.AdamState.PERSIST,
                FedBbptConfig.Weights.SAMPLES, 1, 5);
        FedBbptState w = new FedBbptMethod("fed-bbpt", samples).aggregate(global, List.of(b, a));
        assertArrayEquals(new double[] {0.25, 0.75}, w.theta()[0]);
        // evaluation: argmax per position, ties to the lowest index
        FedBbptMethod method = new FedBbptMethod("fed-bbpt", samples);
        assertArrayEquals(new int[] {4}, ((Prompt.Tokens) method.evaluationPrompt(u)).ids());
        assertArrayEquals(new int[] {6}, ((Prompt.Tokens) method.evaluationPrompt(w)).ids());
        assertEquals(0.75, method.metrics(w).get("mean_max_probability"));
    }

    @Test
    void screenRefusesWhatIsNotADistributionOverTheCandidates() {
        FedBbptMethod method = new FedBbptMethod("fed-bbpt", config(FedBbptConfig.AdamState.PERSIST, 8000));
        FedBbptState global = new FedBbptState(2, new int[] {4, 6}, new double[][] {{0.5, 0.5}}, 0);
        assertNull(method.screen(global, new ThetaUpload(2, 0, 1, 1, new double[][] {{0.2, 0.8005}}, 1)));
        assertTrue(method.screen(global, new ThetaUpload(2, 0, 1, 1, new double[][] {{0.2, 0.9}}, 1)).contains("sums"));
        assertTrue(method.screen(global, new ThetaUpload(2, 0, 1, 1, new double[][] {{-0.1, 1.1}}, 1))
                .contains("negative"));
        assertTrue(method.screen(global, new ThetaUpload(2, 0, 1, 1, new double[][] {{Double.NaN, 1}}, 1))
                .contains("non-finite"));
        assertTrue(method.screen(global, new ThetaUpload(2, 0, 1, 1, new double[][] {{0.5, 0.5}, {0.5, 0.5}}, 1))
                .contains("1 x 2"));
        assertTrue(method.screen(global, new ThetaUpload(2, 0, 1, 1, new double[][] {{1, 0, 0}}, 1)) != null);
    }

    @Test
    void theRegistryEntriesReadTheirKeys() {
        Map<String, String> values = Map.ofEntries(Map.entry("fed-bbpt.prompt-length", "100"),
                Map.entry("fed-bbpt.candidates", "200"), Map.entry("fed-bbpt.samples", "10"),
                Map.entry("fed-bbpt.learning-rate", "1e-4"), Map.entry("fed-bbpt.weight-decay", "0.1"),
                Map.entry("fed-bbpt.clip-norm", "3.0"), Map.entry("fed-bbpt.batch-size", "128"),
                Map.entry("fed-bbpt.api-call-budget", "8000"), Map.entry("fed-bbpt.adam-state", "reset"),
                Map.entry("fed-bbpt.weights", "samples"), Map.entry("fed-bbpt.pmi-threshold", "1.0"),
                Map.entry("fed-bbpt.min-count", "5"));
        MethodSettings settings = new MapSettings(values);
        List<MethodEntry> entries = FedBbptMethods.entries();
        assertEquals(List.of("fed-bbpt", "bdpl"), entries.stream().map(MethodEntry::name).toList());
        FedBbptMethod fed = (FedBbptMethod) entries.get(0).factory().apply(new MethodContext(settings, 1, 0, ModelFacts.NONE));
        FedBbptMethod bdpl = (FedBbptMethod) entries.get(1).factory().apply(new MethodContext(settings, 1, 0, ModelFacts.NONE));
        assertEquals(new FedBbptConfig(100, 200, 10, 1e-4, 0.1, 3, 128, 8000, FedBbptConfig.AdamState.RESET,
                FedBbptConfig.Weights.SAMPLES, 1.0, 5), fed.config());
        assertEquals("bdpl", bdpl.name());
        assertEquals(FedBbptConfig.AdamState.PERSIST, bdpl.config().adamState());
    }

    private static List<Upload> countsOf(FedBbptMethod method) {
        List<Upload> uploads = new ArrayList<>();
        List<LocalData> clients = clients();
        for (int k = 0; k < clients.size(); k++) {
            ClientProcedure p = method.client(method.initialize(), new ClientTask(k, 0, clients.get(k), VOCAB, 5, null));
            uploads.add(((ClientProcedure.Finished) p.next()).upload());
        }
        return uploads;
    }

    private static List<int[]> concat(List<int[]> a, List<int[]> b) {
        List<int[]> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
