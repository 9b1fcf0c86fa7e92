package dev.fedbpt.cli.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A row's verdict against its reference, and what a stopped run folder shows. */
class ChaosRowTest {
    private static final String QUORUM = "round 3 reached no quorum (4 of 8 results) in 3 attempts; everything up to "
            + "round 2 is stored, and `fedbpt resume` retries this round";

    @TempDir
    Path dir;

    private static RunRecord finished(String hash) {
        return new RunRecord(true, 6, 0, 3, 0, 0, hash, null, 1.0, 0, 100);
    }

    private static RunRecord stopped(int rounds, String hash, String reason) {
        return new RunRecord(false, rounds, 2, 9, 0, 0, hash, reason, 1.0, 0, 100);
    }

    @Test
    void equalHashPassesAndDifferentHashFailsWhereExpected() {
        ChaosRow equal = ChaosRow.of(ChaosSetting.NONE.withKills(2), 1, 6, finished("a"), finished("a"));
        assertTrue(equal.hashEqual());
        assertNull(equal.failure());
        ChaosRow differs = ChaosRow.of(ChaosSetting.NONE.withWorkerCrash(0.2), 1, 6, finished("b"), finished("a"));
        assertFalse(differs.hashEqual());
        assertTrue(differs.failure().contains("differs"), differs.failure());
        ChaosRow late = ChaosRow.of(ChaosSetting.NONE.withDelay(0.3), 1, 6, finished("b"), finished("a"));
        assertFalse(late.hashEqual());
        assertNull(late.failure(), "no equality is expected under late answers");
    }

    @Test
    void aRoundWithoutQuorumIsALegitimateOutcome() {
        ChaosRow row = ChaosRow.of(ChaosSetting.NONE.withDrop(0.5), 1, 6, stopped(2, "h", QUORUM),
                stopped(2, "h", QUORUM));
        assertTrue(row.hashEqual());
        assertNull(row.failure());
        assertEquals("no quorum in round 3", row.stoppedShort());
        assertEquals(QUORUM, row.toJson().get("stopped"));
        ChaosRow earlier = ChaosRow.of(ChaosSetting.NONE.withDrop(0.5), 1, 6, stopped(1, "h", QUORUM),
                stopped(2, "h", QUORUM));
        assertFalse(earlier.hashEqual(), "a different number of rounds is a different outcome");
    }

    @Test
    void aRunThatFailsOtherwiseFailsTheRow() {
        ChaosRow row = ChaosRow.of(ChaosSetting.NONE.withKills(2), 1, 6,
                stopped(4, "x", "the journal cannot be read back (damaged): timeout (exit code 2; see log)"),
                finished("a"));
        assertTrue(row.failure().startsWith("the run failed"), row.failure());
        assertEquals("the journal cannot be read back", row.stoppedShort());
        assertEquals("-", ChaosRow.of(ChaosSetting.NONE, 1, 6, finished("a"), finished("a")).stoppedShort());
    }

    @Test
    void stoppedRunIsReadFromItsMetrics() throws Exception {
        Files.writeString(dir.resolve("metrics.jsonl"), """
                {"round":1,"attempts":1,"faults_injected":2,"results_rejected":1,"results_late":0,"wall_ms":100,"global_mean_sha256":"h1"}
                {"round":2,"attempts":3,"faults_injected":5,"results_rejected":0,"results_late":1,"wall_ms":300,"global_mean_sha256":"h2"}
                """);
        RunRecord record = RunRecord.read(dir, QUORUM, 2.5, 0);
        assertFalse(record.finished());
        assertEquals(2, record.roundsCompleted());
        assertEquals(2, record.roundsResampled());
        assertEquals(7, record.faultsInjected());
        assertEquals(1, record.resultsRejected());
        assertEquals(1, record.resultsLate());
        assertEquals("h2", record.hash());
        assertEquals(200, record.meanRoundMs());
        assertTrue(record.stoppedForQuorum());
    }
}
