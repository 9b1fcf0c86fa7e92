package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * the final global mean is the same bytes as an uninterrupted run's.
 */
class CrashResumeTest {
    private static final String[] LONGER = {"experiment.rounds=12", "search.dimension=64", "search.local-iterations=6"};

    @TempDir
    Path dir;

    @Test
    void killedAndResumedRunEndsWithTheUninterruptedHash() throws Exception {
        Path reference = dir.resolve("uninterrupted");
        assertTrue(TestRuns.run(TestRuns.config(LONGER), reference, FaultInjector.NONE).succeeded());
        String expected = TestRuns.result(reference).get("global_mean_sha256").asText();

        Path killed = dir.resolve("killed");
        Random moments = new Random(20261122L);
        int kills = 0;
        int killedMidRun = 0;
        while (kills < 3 && !Files.exists(killed.resolve("result.json"))) {
            Process child = start(killed);
            long delayMs = 1500 + moments.nextInt(2500);
            if (!child.waitFor(delayMs, TimeUnit.MILLISECONDS)) {
                child.destroyForcibly().waitFor(); // SIGKILL on Unix
                kills++;
                if (!Files.exists(killed.resolve("result.json"))) {
                    killedMidRun++;
                }
            }
        }
        Process last = start(killed);
        assertTrue(last.waitFor(120, TimeUnit.SECONDS), "resumed run did not finish");
        assertEquals(0, last.exitValue(), "resumed run failed");
        assertTrue(killedMidRun > 0, "no kill landed before the run finished; make the run longer");
        assertEquals(expected, TestRuns.result(killed).get("global_mean_sha256").asText());
        assertEquals(12, TestRuns.metrics(killed).size(), "metrics.jsonl must have one line per round, no duplicates");
    }

    private static Process start(Path directory) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                RunMain.class.getName(), directory.toString()));
        command.addAll(List.of(LONGER));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }
}
