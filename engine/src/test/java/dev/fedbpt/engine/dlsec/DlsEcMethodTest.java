package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.method.Losses;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.HeldApart;
import dev.fedbpt.engine.method.Fp16;
import dev.fedbpt.engine.method.RoundUpdate;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.LocalRounds;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.SettingException;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.method.Participation;
import dev.fedbpt.engine.method.Payload;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.PromptScorer;
import dev.fedbpt.engine.method.Upload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DlsEcMethodTest {
    private static final long SEED = 5;

    private static FederatedMethod method(Map<String, String> overrides, int rounds) {
        MethodContext context = TestModels.context(overrides, rounds, SEED);
        return Methods.create("dls-ec", context);
    }

    @Test
    void localSearchOnAFullBatchNeverEndsWorseThanItStartedAndUploadsOrdinaryTokens() {
        FederatedMethod method = method(Map.of("dls-ec.local-steps", "12"), 3);
        MethodState initial = method.initialize();
        LocalData data = TestModels.data(8, 1);
        PromptScorer scorer = TestModels.scorer();
        Prompt start = method.evaluationPrompt(initial);
        double before = Losses.meanCrossEntropy(scorer.score(start, data.tokenIds()), data.labels(), 2);
        List<Integer> promptsPerStep = new ArrayList<>();
        PromptScorer counting = (prompt, rows) -> scorer.score(prompt, rows);
        ClientProcedure procedure = method.client(method.configure(initial, 0),
                new ClientTask(0, 0, data, TestModels.VOCAB, SEED, null));
        while (procedure.next() instanceof ClientProcedure.ScorePrompts request) {
            promptsPerStep.add(request.prompts().size());
            float[][][] scores = new float[request.prompts().size()][][];
            for (int k = 0; k < scores.length; k++) {
                scores[k] = counting.score(request.prompts().get(k), request.rows());
            }
            procedure.onScores(scores);
        }
        SearchUpload upload = (SearchUpload) ((ClientProcedure.Finished) procedure.next()).upload();
        assertTrue(upload.loss() <= before, upload.loss() + " > " + before);
        assertEquals(6, upload.ids().length);
        for (int id : upload.ids()) {
            assertTrue(id == SearchUpload.SKIP || (id >= 4 && id < TestModels.VOCABULARY), "id " + id);
        }
        assertEquals(12, promptsPerStep.size());
        assertEquals(4, promptsPerStep.get(0), "the first step scores the current prompt with the K candidates");
        assertTrue(promptsPerStep.subList(1, 12).stream().allMatch(n -> n == 3),
                "a full batch knows the current loss after the first step: " + promptsPerStep);
    }

    @Test
    void roundsAreDeterministicAndEveryPayloadSurvivesItsCodec() {
        List<LocalData> clients = List.of(TestModels.data(8, 1), TestModels.data(12, 2), TestModels.data(8, 3));
        LocalRounds.Outcome a = LocalRounds.run(method(Map.of(), 3), SEED, 3, 1.0, clients, TestModels.VOCAB,
                TestModels.scorer(), false);
        LocalRounds.Outcome b = LocalRounds.run(method(Map.of(), 3), SEED, 3, 1.0, clients, TestModels.VOCAB,
                TestModels.scorer(), true);
        for (int t = 0; t < 3; t++) {
            assertArrayEquals(bytes(a.states().get(t)), bytes(b.states().get(t)), "round " + t);
            assertArrayEquals(bytes(roundTrip(a.states().get(t))), bytes(a.states().get(t)));
            for (Upload upload : a.uploads().get(t)) {
                assertArrayEquals(bytes(roundTrip(upload)), bytes(upload));
            }
        }
        DlsEcState last = (DlsEcState) a.last();
        assertEquals(3, last.round());
        assertTrue(last.update() instanceof Update.Compressed);
    }

    @Test
    void aClientHoldingThePreviousPromptRebuildsTheNewOneFromTheEncodedDownload() {
        for (String download : List.of("compressed", "full")) {
            FederatedMethod method = method(Map.of("dls-ec.download", download), 2);
            List<LocalData> clients = List.of(TestModels.data(8, 1), TestModels.data(8, 2));
            LocalRounds.Outcome outcome = LocalRounds.run(method, SEED, 2, 1.0, clients, TestModels.VOCAB,
                    TestModels.scorer(), false);
            DlsEcState previous = (DlsEcState) outcome.states().get(0);
            DlsEcState next = (DlsEcState) outcome.states().get(1);
            byte[] message = UpdateWire.download(next.update());
            Update received = UpdateWire.readDownload(message, 6, 3, TestModels.HIDDEN, download.equals("compressed"));
            float[][] rebuilt = received.apply(previous.prompt(), TestModels.embeddings(SEED));
            for (int t = 0; t < rebuilt.length; t++) {
                assertArrayEquals(next.prompt()[t], rebuilt[t], 0f, download + " position " + t);
            }
            assertEquals(message.length, ((DlsEcMethod) method).downlinkBytes(next));
            // The framework's round update: the same message, rebuilt bit for bit and checked by its digest.
            Downlink held = method.configure(previous, 1);
            Downlink expected = method.configure(next, 2);
            RoundUpdate update = RoundUpdate.decode(RoundUpdate.of(2, method.downlinkUpdate(next, 2,
                    outcome.uploads().get(1)), expected).encode());
            Downlink got = update.rebuild(method, held);
            assertNotNull(got, download);
            assertArrayEquals(RoundUpdate.sha256(expected), RoundUpdate.sha256(got));
            assertTrue(RoundUpdate.encodedSize(update.update()) < RoundUpdate.payloadSize(expected));
            assertEquals(message.length + 1 + 1 + 4 + 4, RoundUpdate.payloadSize(update.update()),
                    "the paper's message after a 10-byte header");
            assertNull(method.downlinkUpdate(outcome.initial(), 0, null), "the first prompt goes whole");
        }
    }

    @Test
    void messageSizesAreThePapersTableOne() {
        int[][] tokens = new int[50][5];
        float[][] coefficients = new float[50][5];
        assertEquals(8_000, 8 * UpdateWire.download(new Update.Compressed(tokens, coefficients)).length);
        assertEquals(4_800, 8 * UpdateWire.download(new Update.Compressed(new int[50][3], new float[50][3])).length);
        assertEquals(819_200, 8 * UpdateWire.download(new Update.Full(new float[50][1024])).length,
                "FullDownload at RoBERTa-large's D = 1024");
        assertEquals(307_200, 8 * UpdateWire.download(new Update.Full(new float[50][384])).length,
                "FullDownload at the bundled encoders' D = 384");
        int[] ids = new int[50];
        ids[3] = SearchUpload.SKIP;
        assertEquals(800, 8 * UpdateWire.upload(ids).length);
        assertArrayEquals(ids, UpdateWire.readUpload(UpdateWire.upload(ids)));
    }

    @Test
    void thePersonalisationRoundScoresEveryClientHeldOutOrNotOnItsOwnTestRows() {
        int federatedRounds = 2;
        FederatedMethod method = method(Map.of(), federatedRounds);
        List<LocalData> train = new ArrayList<>();
        List<LocalData> test = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            train.add(TestModels.data(8, 10 + k));
            test.add(TestModels.data(20, 20 + k));
        }
        Participation participation = new Participation(4, new int[] {3}, federatedRounds);
        LocalRounds.Outcome outcome = LocalRounds.run(method, SEED, federatedRounds + 1, 1.0, train, test,
                participation, TestModels.VOCAB, TestModels.scorer(), false);
        for (int t = 0; t < federatedRounds; t++) {
            assertEquals(List.of(0, 1, 2), outcome.uploads().get(t).stream().map(Upload::clientId).toList(),
                    "the held-out client takes no part in federated rounds");
        }
        DlsEcState last = (DlsEcState) outcome.last();
        assertEquals(4, last.personal().size());
        assertFalse(last.personal().get(3).participant());
        assertTrue(last.personal().stream().allMatch(r -> r.testCount() == 20));
        Map<String, Double> metrics = method.metrics(last);
        assertEquals(Personalisation.meanAccuracy(last.personal(), true, true), metrics.get("p_accuracy"));
        assertEquals((double) last.personal().get(3).tunedCorrect() / 20, metrics.get("np_accuracy"));
        assertNotNull(metrics.get("p_accuracy_untuned"));
        assertEquals(metrics.get("screened_positions") / (federatedRounds * 6), metrics.get("guard_rate"),
                "the guard's share of the 2 rounds x 6 positions compressed");
        assertEquals(0, ((DlsEcMethod) method).uplinkBytes(outcome.uploads().get(federatedRounds).get(0)));
        assertEquals(800 / 8 * 6 / 50, ((DlsEcMethod) method).uplinkBytes(outcome.uploads().get(0).get(0)), "6 positions x 16 bits");
    }

    @Test
    void anAlphaMeasuredAsAShareIsAtMostOne() {
        SettingException refused = assertThrows(SettingException.class,
                () -> method(Map.of("dls-ec.alpha-scale", "max-correlation", "dls-ec.alpha", "2"), 2));
        assertEquals("dls-ec.alpha", refused.key());
        assertNotNull(method(Map.of("dls-ec.alpha", "2"), 2), "an absolute weight may be any size");
    }

    @Test
    void theServerRefusesIdsThatAreNotOrdinaryTokens() {
        FederatedMethod method = method(Map.of(), 2);
        MethodState initial = method.initialize();
        assertNull(method.screen(initial, new SearchUpload(0, 0, 0.5, 8, new int[] {5, -1, -1, -1, -1, -1})));
        assertNotNull(method.screen(initial, new SearchUpload(0, 0, 0.5, 8, new int[] {2, -1, -1, -1, -1, -1})),
                "a special token");
        assertNotNull(method.screen(initial, new SearchUpload(0, 0, 0.5, 8, new int[] {5})), "wrong length");
        assertNotNull(method.screen(initial, new SearchUpload(0, 0, 0.5, 8, new int[] {5, 300, -1, -1, -1, -1})),
                "outside the vocabulary");
    }

    @Test
    void bbtFedAveragesTheClientsFp16MeansAndPersonalisesFromTheGlobalZ() {
        int federatedRounds = 2;
        FederatedMethod method = Methods.create("bbt-fed", TestModels.context(Map.of(), federatedRounds, SEED));
        List<LocalData> train = new ArrayList<>();
        List<LocalData> test = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            train.add(TestModels.data(8, 30 + k));
            test.add(TestModels.data(10, 40 + k));
        }
        Participation participation = new Participation(3, new int[] {2}, federatedRounds);
        LocalRounds.Outcome outcome = LocalRounds.run(method, SEED, federatedRounds + 1, 1.0, train, test,
                participation, TestModels.VOCAB, TestModels.scorer(), false);
        BbtState first = (BbtState) outcome.states().get(0);
        List<Upload> uploads = outcome.uploads().get(0);
        assertEquals(2, uploads.size(), "client 2 is held out");
        for (int i = 0; i < first.z().length; i++) {
            float expected = Fp16.round((((ZUpload) uploads.get(0)).z()[i] + (double) ((ZUpload) uploads.get(1)).z()[i]) / 2);
            assertEquals(expected, first.z()[i], 0f, "the uniform mean, in fp16");
            assertEquals(first.z()[i], Fp16.round(first.z()[i]), "z travels in fp16");
        }
        assertEquals(2 * 5, ((BbtMethod) method).uplinkBytes(uploads.get(0)), "d x 16 bits");
        assertEquals(2 * 5, ((BbtMethod) method).downlinkBytes(first));
        BbtState last = (BbtState) outcome.last();
        assertEquals(3, last.personal().size());
        assertNotNull(method.metrics(last).get("np_accuracy"));
        for (int t = 0; t <= federatedRounds; t++) {
            assertArrayEquals(bytes(roundTrip(outcome.states().get(t))), bytes(outcome.states().get(t)));
            for (Upload upload : outcome.uploads().get(t)) {
                assertArrayEquals(bytes(roundTrip(upload)), bytes(upload));
            }
        }
    }

    @Test
    void bbtAloneRunsOnlyThePersonalisationRoundFromTheFirstPrompt() {
        FederatedMethod method = Methods.create("bbt", TestModels.context(Map.of(), 0, SEED));
        List<LocalData> train = List.of(TestModels.data(8, 1), TestModels.data(8, 2));
        List<LocalData> test = List.of(TestModels.data(10, 3), TestModels.data(10, 4));
        LocalRounds.Outcome outcome = LocalRounds.run(method, SEED, 1, 1.0, train, test,
                new Participation(2, new int[0], 0), TestModels.VOCAB, TestModels.scorer(), false);
        BbtState last = (BbtState) outcome.last();
        assertEquals(2, last.personal().size());
        assertTrue(last.personal().stream().allMatch(PersonalResult::participant));
        assertNull(method.metrics(last).get("np_accuracy"), "no client was held out");
        assertEquals(0, ((BbtMethod) method).uplinkBytes(outcome.uploads().get(0).get(0)), "nothing federated");
        // Its untuned accuracy is the first prompt's: DLS-EC's before its first round.
        FederatedMethod dlsEc = method(Map.of(), 0);
        assertEquals(dlsEc.evaluationPrompt(dlsEc.initialize()).sha256(),
                method.evaluationPrompt(method.initialize()).sha256());
    }

    /** bbt alone on held-apart rows: population 4, budget 24 (6 generations), a dev evaluation every 8 calls. */
    private static final Map<String, String> HELD_APART = Map.of("dls-ec.post-tuning.rows", "held-apart",
            "dls-ec.post-tuning.eval-every", "8");

    /** A client's personalisation-round task with held-apart rows: 8 post-tuning rows, 4 dev rows, 10 test rows. */
    private static ClientTask heldApartTask() {
        return new ClientTask(0, 0, TestModels.data(6, 1), TestModels.VOCAB, SEED, null, TestModels.data(10, 2), true,
                new HeldApart(TestModels.data(8, 3), TestModels.data(4, 4)));
    }

    /** Scores {@code rows} so that the first {@code right} rows are predicted correctly and the rest wrongly. */
    private static float[][] scoresWithCorrect(LocalData rows, int right) {
        float[][] scores = new float[rows.size()][];
        for (int r = 0; r < rows.size(); r++) {
            int predicted = r < right ? rows.labels()[r] : 1 - rows.labels()[r];
            scores[r] = predicted == 1 ? new float[] {0f, 1f} : new float[] {1f, 0f};
        }
        return scores;
    }

    @Test
    void heldApartPostTuningFitsItsOwnRowsScoresTheCandidateEveryEvalEveryCallsOnDevAndTestsTheFirstBest() {
        FederatedMethod method = Methods.create("bbt", TestModels.context(HELD_APART, 0, SEED));
        ClientTask task = heldApartTask();
        LocalData train = task.heldApart().train();
        LocalData dev = task.heldApart().dev();
        ClientProcedure procedure = method.client(method.configure(method.initialize(), 0), task);
        PromptScorer scorer = TestModels.scorer();
        int[] devCorrect = {2, 3, 3}; // the second evaluation is the best; the third only ties it
        List<String> kinds = new ArrayList<>();
        List<Integer> steps = new ArrayList<>();
        List<String> devPrompts = new ArrayList<>();
        String trainBest = null;
        double bestLoss = Double.POSITIVE_INFINITY;
        String tested = null;
        while (procedure.next() instanceof ClientProcedure.ScorePrompts request) {
            steps.add(request.step());
            float[][][] scores = new float[request.prompts().size()][][];
            if (request.rows().equals(train.tokenIds())) {
                kinds.add("train");
                for (int k = 0; k < scores.length; k++) {
                    scores[k] = scorer.score(request.prompts().get(k), request.rows());
                    double loss = Losses.meanCrossEntropy(scores[k], train.labels(), 2);
                    if (loss < bestLoss) {
                        bestLoss = loss;
                        trainBest = request.prompts().get(k).sha256();
                    }
                }
            } else if (request.rows().equals(dev.tokenIds())) {
                kinds.add("dev");
                assertEquals(1, scores.length, "one candidate per 8 calls, 4 calls a generation");
                scores[0] = scoresWithCorrect(dev, devCorrect[devPrompts.size()]);
                devPrompts.add(request.prompts().get(0).sha256());
            } else {
                kinds.add("test");
                assertEquals(task.test().tokenIds(), request.rows());
                tested = request.prompts().get(0).sha256();
                for (int k = 0; k < scores.length; k++) {
                    scores[k] = scorer.score(request.prompts().get(k), request.rows());
                }
            }
            procedure.onScores(scores);
        }
        assertEquals(List.of("train", "train", "dev", "train", "train", "dev", "train", "train", "dev", "test"),
                kinds, "a dev evaluation after calls 8, 16 and 24; the test rows last");
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), steps, "requests count from 0, dev evaluations among them");
        assertEquals(devPrompts.get(1), tested, "the first best on dev is tested (a later tie does not replace it)");
        assertNotEquals(devPrompts.get(2), tested);
        assertNotEquals(trainBest, tested, "the best on dev, not the best training loss");
        ClientProcedure.Finished finished = (ClientProcedure.Finished) procedure.next();
        PersonalResult result = (PersonalResult) finished.upload();
        assertEquals(8, result.sampleCount(), "fitted on the post-tuning rows");
        assertEquals(10, result.testCount());
        assertEquals(bestLoss, result.loss(), 0.0);
        float[][] base = ((Prompt.Embeddings) method.evaluationPrompt(method.initialize())).vectors();
        double[] z = ((PersonalPrompt) finished.memory()).z();
        Projection projection = new Projection(6, TestModels.embeddings(SEED), 5, SEED);
        assertEquals(tested, new Prompt.Embeddings(projection.apply(base, z)).sha256(), "the personal prompt kept");
    }

    @Test
    void aDevEvaluationScoresEveryCandidateDueInOneRequestInCallOrder() {
        Map<String, String> every2 = new java.util.HashMap<>(HELD_APART);
        every2.put("dls-ec.post-tuning.eval-every", "2");
        FederatedMethod method = Methods.create("bbt", TestModels.context(every2, 0, SEED));
        ClientTask task = heldApartTask();
        ClientProcedure procedure = method.client(method.configure(method.initialize(), 0), task);
        PromptScorer scorer = TestModels.scorer();
        List<String> lastGeneration = new ArrayList<>();
        int devRequests = 0;
        while (procedure.next() instanceof ClientProcedure.ScorePrompts request) {
            float[][][] scores = new float[request.prompts().size()][][];
            if (request.rows().equals(task.heldApart().dev().tokenIds())) {
                devRequests++;
                assertEquals(List.of(lastGeneration.get(1), lastGeneration.get(3)),
                        request.prompts().stream().map(Prompt::sha256).toList(), "calls 2 and 4 of the generation");
            }
            lastGeneration = request.prompts().stream().map(Prompt::sha256).toList();
            for (int k = 0; k < scores.length; k++) {
                scores[k] = scorer.score(request.prompts().get(k), request.rows());
            }
            procedure.onScores(scores);
        }
        assertEquals(6, devRequests);
        assertEquals(12.0, method.metrics(new BbtState(1, new float[5], List.of(
                (PersonalResult) ((ClientProcedure.Finished) procedure.next()).upload())))
                .get("post_tuning_dev_evaluations"), "24 calls / 2");
    }

    @Test
    void heldApartPostTuningWithoutADevEvaluationIsRefusedNamingEvalEvery() {
        Map<String, String> few = new java.util.HashMap<>(HELD_APART);
        few.put("bbt.budget", "4");
        SettingException refused = assertThrows(SettingException.class,
                () -> Methods.create("bbt", TestModels.context(few, 0, SEED)));
        assertEquals("dls-ec.post-tuning.eval-every", refused.key());
        Map<String, String> dlsEc = new java.util.HashMap<>(HELD_APART);
        dlsEc.put("dls-ec.post-tuning.budget", "4");
        assertEquals("dls-ec.post-tuning.eval-every", assertThrows(SettingException.class,
                () -> method(dlsEc, 2)).key());
        FederatedMethod bbt = Methods.create("bbt", TestModels.context(HELD_APART, 0, SEED));
        assertThrows(IllegalStateException.class, () -> bbt.client(bbt.configure(bbt.initialize(), 0),
                new ClientTask(0, 0, TestModels.data(6, 1), TestModels.VOCAB, SEED, null, TestModels.data(10, 2),
                        true)), "held-apart post-tuning needs its rows");
    }

    @Test
    void dlsEcPostTunesOnHeldApartRowsThroughTheRounds() {
        int federatedRounds = 1;
        FederatedMethod method = method(HELD_APART, federatedRounds);
        List<LocalData> train = List.of(TestModels.data(8, 1), TestModels.data(8, 2));
        List<LocalData> test = List.of(TestModels.data(10, 3), TestModels.data(10, 4));
        List<HeldApart> heldApart = List.of(new HeldApart(TestModels.data(8, 5), TestModels.data(8, 6)),
                new HeldApart(TestModels.data(8, 7), TestModels.data(8, 8)));
        LocalRounds.Outcome a = LocalRounds.run(method, SEED, federatedRounds + 1, 1.0, train, test, heldApart,
                new Participation(2, new int[0], federatedRounds), TestModels.VOCAB, TestModels.scorer(), false);
        LocalRounds.Outcome b = LocalRounds.run(method(HELD_APART, federatedRounds), SEED, federatedRounds + 1, 1.0,
                train, test, heldApart, new Participation(2, new int[0], federatedRounds), TestModels.VOCAB,
                TestModels.scorer(), true);
        assertArrayEquals(bytes(a.last()), bytes(b.last()));
        DlsEcState last = (DlsEcState) a.last();
        assertTrue(last.personal().stream().allMatch(r -> r.sampleCount() == 8 && r.testCount() == 10));
        assertEquals(2.0, method.metrics(last).get("post_tuning_dev_evaluations"), "16 calls / 8");
        assertNull(method(Map.of(), 1).metrics(last).get("post_tuning_dev_evaluations"), "none on training rows");
    }

    private static byte[] bytes(Payload payload) {
        return Methods.codecOf(payload).encode(payload);
    }

    private static Payload roundTrip(Payload payload) {
        return Methods.codecOf(payload).decode(bytes(payload));
    }
}
