package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.fedbpt.persistence.JournalCheckpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM running an experiment with SIGKILL at random moments, resumes it after each kill, and checks that
 * the final global mean is the same bytes as an uninterrupted run's, without faults and under injected faults.
 */
class CrashResumeTest {
    private static final int ROUNDS = 12;
    /** Seconds the last, resumed run may take before the test gives up on it. */
    private static final long RESUMED_RUN_DEADLINE_S = 600;
    private static final String[] LONGER = {"experiment.rounds=" + ROUNDS, "search.dimension=64",
            "search.local-iterations=6"};

    @TempDir
    Path dir;

    @Test
    void killedAndResumedRunEndsWithTheUninterruptedHash() throws Exception {
        String expected = uninterruptedHash(LONGER);
        assertEquals(expected, killRepeatedlyAndResume(LONGER, 20261122L));
    }

    /**
     * The reference-code profile keeps pycma's lazy decomposition in the server's state across rounds (at d = 64 it
     * is refreshed every few rounds); snapshots after every round must carry it, so a resumed run decomposes what
     * the uninterrupted one did.
     */
    @Test
    void referenceCodeProfileKilledAndResumedEndsWithTheUninterruptedHash() throws Exception {
        String[] reference = TestRuns.concat(LONGER, "search.profile=reference-code");
        String expected = uninterruptedHash(reference);
        assertEquals(expected, killRepeatedlyAndResume(TestRuns.concat(reference, "persistence.snapshot-every=1"),
                20261124L));
    }

    /**
     * Fed-BBPT keeps each client's AdamW moments in its memory across rounds; they live in the server's journal, so a
     * resumed run hands every client what the uninterrupted run did. Many small steps make the run long enough for
     * the kills to land mid-run.
     */
    @Test
    void fedBbptWithClientMemoryKilledAndResumedEndsWithTheUninterruptedHash() throws Exception {
        String[] fedBbpt = TestRuns.concat(new String[] {"experiment.rounds=" + ROUNDS}, "experiment.method=fed-bbpt",
                "fed-bbpt.prompt-length=6", "fed-bbpt.candidates=16", "fed-bbpt.samples=12",
                "fed-bbpt.batch-size=1", "fed-bbpt.min-count=0", "fed-bbpt.learning-rate=0.05",
                "fed-bbpt.adam-state=persist", "persistence.snapshot-every=1");
        String expected = uninterruptedHash(fedBbpt);
        assertEquals(expected, killRepeatedlyAndResume(fedBbpt, 20261125L));
    }

    /**
     * DLS-EC, one client per domain and one held out: the personalisation round's post-tuned prompts (each client's
     * z, kept as its memory) and the P / NP accuracies come out of the journal as the uninterrupted run made them.
     */
    @Test
    void dlsEcWithItsPersonalisationRoundKilledAndResumedEndsWithTheUninterruptedResult() throws Exception {
        DomainFiles.write(dir);
        String[] dlsEc = TestRuns.concat(DomainFiles.dlsEc(dir, ROUNDS), "dls-ec.local-steps=12",
                "dls-ec.post-tuning.budget=200", "persistence.snapshot-every=1");
        String expected = uninterruptedHash(dlsEc);
        String expectedNp = TestRuns.result(dir.resolve("uninterrupted")).get("final_np_accuracy").asText();
        assertEquals(expected, killRepeatedlyAndResume(dlsEc, 20261126L, ROUNDS + 1));
        assertEquals(expectedNp, TestRuns.result(dir.resolve("killed")).get("final_np_accuracy").asText());
    }

    /**
     * FedP-tuning on the PyTorch backend: every local step a backward pass through libtorch, local AdamW, the prefix's
     * float32 parameters on the wire; a resumed run recomputes the interrupted round's gradients to the same bits.
     */
    @Test
    void fedPTuningOnThePytorchBackendKilledAndResumedEndsWithTheUninterruptedHash() throws Exception {
        String[] fedPTuning = {"experiment.rounds=" + ROUNDS, "model.backend=pytorch", "model.intra-op-threads=1",
                "experiment.method=fedp-tuning", "gradient.fedp-tuning=prefix", "gradient.prefix-length=2",
                "gradient.local-epochs=1", "persistence.snapshot-every=1"};
        String expected = uninterruptedHash(fedPTuning);
        assertEquals(expected, killRepeatedlyAndResume(fedPTuning, 20261127L));
    }

    /**
     * FedPepTAO choosing its layers: the warm-up's layer scores, the keep ratio, each device's own layers and AdamW
     * moments (its memory) and the server's control variates and momentum (its state) come out of the journal as the
     * uninterrupted run made them, and so do the personalisation round's P and NP accuracies.
     */
    @Test
    void fedPepTaoWithDeviceMemoryKilledAndResumedEndsWithTheUninterruptedResult() throws Exception {
        String[] fedPepTao = {"experiment.rounds=" + ROUNDS, "model.backend=pytorch", "model.intra-op-threads=1",
                "experiment.method=fedpeptao", "fedpeptao.selected-layers=auto", "fedpeptao.warm-up-rounds=2",
                "fedpeptao.lanczos-steps=4", "gradient.prefix-length=2",
                "gradient.local-epochs=1", "federation.sample-fraction=0.75", "data.split=dirichlet",
                "federation.held-out-clients=1", "persistence.snapshot-every=1"};
        String expected = uninterruptedHash(fedPepTao);
        String expectedNp = TestRuns.result(dir.resolve("uninterrupted")).get("final_np_accuracy").asText();
        assertEquals(expected, killRepeatedlyAndResume(fedPepTao, 20261128L, ROUNDS + 1));
        assertEquals(expectedNp, TestRuns.result(dir.resolve("killed")).get("final_np_accuracy").asText());
    }

    /**
     * Under fire: clients drop, crash and see corrupted scores (the same in both runs: they are part of the
     * experiment), and in the killed run workers crash too, which must change timing only. The killed run also
     * snapshots every round's worth of events, so kills land after snapshots taken inside rounds and after the
     * deletion of the events before them.
     */
    @Test
    void killedAndResumedRunUnderInjectedFaultsEndsWithTheUninterruptedHash() throws Exception {
        String[] contentFaults = TestRuns.concat(LONGER, "faults.client-drop-rate=0.2", "faults.client-crash-rate=0.1",
                "faults.score-corruption-rate=0.01", "federation.round-deadline=2s");
        String expected = uninterruptedHash(contentFaults);
        String[] underFire = TestRuns.concat(contentFaults, "faults.worker-crash-rate=0.2",
                "persistence.snapshot-every=1");
        assertEquals(expected, killRepeatedlyAndResume(underFire, 20261123L));
        long faults = TestRuns.result(dir.resolve("killed")).get("faults_injected").asLong();
        assertTrue(faults > 0, "faults were injected: " + faults);
    }

    /**
     * What version control carries of a stopped run (its configuration, metrics and checkpoint, not the binary
     * journal) resumes in another folder, as on another machine, to the uninterrupted run's bytes.
     */
    @Test
    void aRunCarriedAsItsCheckpointResumesElsewhereWithTheUninterruptedHash() throws Exception {
        String[] overrides = TestRuns.concat(LONGER, "persistence.checkpoint-every=0s");
        String expected = uninterruptedHash(LONGER);
        Path stopped = dir.resolve("stopped");
        Process child = start(stopped, overrides);
        Path checkpoint = stopped.resolve(JournalCheckpoint.FILE);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RESUMED_RUN_DEADLINE_S);
        while (!(Files.exists(checkpoint) && TestRuns.metrics(stopped).size() >= 3) && child.isAlive()
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        child.destroyForcibly().waitFor();
        assertTrue(Files.exists(checkpoint) && !Files.exists(stopped.resolve("result.json")),
                "stopped mid-run with a checkpoint; its output ends:\n" + tail(stopped));

        Path carried = dir.resolve("carried");
        Files.createDirectories(carried);
        for (String file : List.of(RunFolder.CONFIG_FILE, "metrics.jsonl", JournalCheckpoint.FILE)) {
            Files.copy(stopped.resolve(file), carried.resolve(file));
        }
        Process resumed = start(carried, overrides);
        if (!resumed.waitFor(RESUMED_RUN_DEADLINE_S, TimeUnit.SECONDS)) {
            resumed.destroyForcibly().waitFor();
            fail("resumed run did not finish; its output ends:\n" + tail(carried));
        }
        assertEquals(0, resumed.exitValue(), () -> "resumed run failed; its output ends:\n" + tail(carried));
        assertTrue(tail(carried).contains("journal rebuilt from " + JournalCheckpoint.FILE), tail(carried));
        assertTrue(tail(carried).contains("resuming after round"), "it continued, not started over:\n"
                + tail(carried));
        assertEquals(ROUNDS, TestRuns.metrics(carried).size(), "one metrics line per round, no duplicates");
        assertEquals(expected, TestRuns.result(carried).get("global_mean_sha256").asText());
        assertFalse(Files.exists(carried.resolve(JournalCheckpoint.FILE)), "a finished run deletes its checkpoint");
    }

    private String uninterruptedHash(String[] overrides) {
        Path reference = dir.resolve("uninterrupted");
        assertTrue(TestRuns.run(TestRuns.config(overrides), reference).succeeded());
        return TestRuns.result(reference).get("global_mean_sha256").asText();
    }

    /** Kills the run in a child JVM with SIGKILL up to 3 times, resumes it to the end, returns its final hash. */
    private String killRepeatedlyAndResume(String[] overrides, long momentsSeed) throws Exception {
        return killRepeatedlyAndResume(overrides, momentsSeed, ROUNDS);
    }

    private String killRepeatedlyAndResume(String[] overrides, long momentsSeed, int rounds) throws Exception {
        Path killed = dir.resolve("killed");
        Random moments = new Random(momentsSeed);
        int kills = 0;
        int killedMidRun = 0;
        while (kills < 3 && !Files.exists(killed.resolve("result.json"))) {
            Process child = start(killed, overrides);
            long delayMs = 1500 + moments.nextInt(2500);
            if (child.waitFor(delayMs, TimeUnit.MILLISECONDS) && child.exitValue() != 0) {
                fail("a run stopped by itself with exit " + child.exitValue() + "; its output ends:\n" + tail(killed));
            }
            if (child.isAlive()) {
                child.destroyForcibly().waitFor(); // SIGKILL on Unix
                kills++;
                if (!Files.exists(killed.resolve("result.json"))) {
                    killedMidRun++;
                }
            }
        }
        Process last = start(killed, overrides);
        // A deadline against a hang, not a speed check: beside a sweep holding both cores the PyTorch runs here took
        // longer than 180 s.
        if (!last.waitFor(RESUMED_RUN_DEADLINE_S, TimeUnit.SECONDS)) {
            last.destroyForcibly().waitFor(); // not left running after the test
            fail("resumed run did not finish in " + RESUMED_RUN_DEADLINE_S + " s; its output ends:\n" + tail(killed));
        }
        assertEquals(0, last.exitValue(), () -> "resumed run failed; its output ends:\n" + tail(killed));
        assertTrue(killedMidRun > 0, "no kill landed before the run finished; make the run longer");
        assertEquals(rounds, TestRuns.metrics(killed).size(), "metrics.jsonl must have one line per round, no duplicates");
        return TestRuns.result(killed).get("global_mean_sha256").asText();
    }

    /** The last lines the child runs in {@code directory} wrote (their output goes to a log beside it). */
    private static String tail(Path directory) {
        try {
            List<String> lines = Files.readAllLines(directory.resolveSibling(directory.getFileName() + ".log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    private static Process start(Path directory, String[] overrides) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                RunMain.class.getName(), directory.toString()));
        command.addAll(List.of(overrides));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolveSibling(
                        directory.getFileName() + ".log").toFile())).start();
    }
}
