package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fedbpt.config.ExperimentConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Faults configured under {@code faults}: seeded, counted in metrics.jsonl, and harmless where they should be. */
class FaultInjectionTest {
    private static final String[] CONTENT_FAULTS = {"faults.client-drop-rate=0.25", "faults.client-crash-rate=0.15",
            "faults.score-corruption-rate=0.02", "federation.round-deadline=2s"};

    @TempDir
    Path dir;

    @Test
    void contentFaultsAreDeterministicCountedAndWorkerCrashesNeverChangeTheResult() {
        ExperimentConfig faulty = TestRuns.config(CONTENT_FAULTS);
        assertTrue(TestRuns.run(faulty, dir.resolve("a")).succeeded());
        assertTrue(TestRuns.run(faulty, dir.resolve("b")).succeeded());
        String[] withWorkerCrashes = TestRuns.concat(CONTENT_FAULTS, "faults.worker-crash-rate=0.3");
        ExperimentRunner.Outcome crashing = TestRuns.run(TestRuns.config(withWorkerCrashes), dir.resolve("c"));
        assertTrue(crashing.succeeded(), crashing.failure());

        String hash = hash(dir.resolve("a"));
        assertEquals(hash, hash(dir.resolve("b")), "the same seed and faults give the same bytes");
        assertEquals(hash, hash(dir.resolve("c")), "worker crashes change timing, never results");
        assertEquals(faultCounts(dir.resolve("a")), faultCounts(dir.resolve("b")));

        long drops = sum(dir.resolve("a"), "client_drop");
        long crashes = sum(dir.resolve("a"), "client_crash");
        long corruptions = sum(dir.resolve("a"), "score_corruption");
        assertTrue(drops > 0 && crashes > 0 && corruptions > 0, faultCounts(dir.resolve("a")).toString());
        assertTrue(TestRuns.result(dir.resolve("a")).get("faults_injected").asLong() >= drops + crashes + corruptions);
        assertTrue(TestRuns.result(dir.resolve("a")).get("non_finite_scores").asLong() > 0,
                "corrupted scores reach the clients' searches as non-finite fitness");
        assertTrue(sum(dir.resolve("c"), "worker_crash") > 0);
        TestRuns.metrics(dir.resolve("a")).forEach(round ->
                assertTrue(round.get("reported").asInt() >= 2, "every closed round met the quorum: " + round));
    }

    @Test
    void aRoundThatNeverReachesQuorumStopsTheRunWithAClearErrorAndKeepsWhatWasStored() throws Exception {
        ExperimentConfig config = TestRuns.config("faults.client-drop-rate=1.0", "federation.round-deadline=300ms",
                "federation.max-attempts=2");
        ExperimentRunner.Outcome outcome = TestRuns.run(config, dir);
        assertFalse(outcome.succeeded());
        assertTrue(outcome.failure().contains("round 1 reached no quorum"), outcome.failure());
        assertTrue(outcome.failure().contains("in 2 attempts"), outcome.failure());
        assertTrue(outcome.failure().contains("0 of 4 results, 2 needed"), outcome.failure());
        assertTrue(outcome.failure().contains("4 clients went the round deadline of 0.3 s")
                && outcome.failure().contains("raise federation.round-deadline"), outcome.failure());
        assertTrue(Files.exists(dir.resolve("journal.mv.db")), "the journal is kept");
        ExperimentRunner.Outcome again = TestRuns.run(config, dir);
        assertTrue(again.failure().contains("reached no quorum"), "resume retries the round: " + again.failure());
    }

    @Test
    void lateAnswersAreIgnoredAndCountedAndNoRoundHangs() {
        ExperimentConfig config = TestRuns.config("faults.client-delay-rate=1.0", "faults.client-delay-mean=1s",
                "federation.round-deadline=500ms", "federation.quorum=0.25", "federation.max-attempts=5",
                "experiment.rounds=6");
        ExperimentRunner.Outcome outcome = TestRuns.run(config, dir);
        assertTrue(outcome.succeeded(), outcome.failure());
        JsonNode result = TestRuns.result(dir);
        assertEquals(6, result.get("rounds_completed").asInt());
        assertTrue(result.get("results_late").asLong() > 0, result.toString());
        assertTrue(sum(dir, "client_delay") > 0);
        assertEquals(0, result.get("results_rejected").asLong(), "late is not rejected");
    }

    private static String hash(Path run) {
        return TestRuns.result(run).get("global_mean_sha256").asText();
    }

    private static List<String> faultCounts(Path run) {
        return TestRuns.metrics(run).stream().map(line -> line.get("faults").toString()).toList();
    }

    private static long sum(Path run, String fault) {
        return TestRuns.metrics(run).stream().mapToLong(line -> line.get("faults").get(fault).asLong()).sum();
    }
}
