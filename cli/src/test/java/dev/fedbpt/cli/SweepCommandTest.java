package dev.fedbpt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** `fedbpt sweep` end to end on the synthetic model: run, skip finished cells, resume a stopped one. */
class SweepCommandTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final ConsoleCapture console = new ConsoleCapture();

    private Path sweepFile;
    private Path results;

    static final List<String> CELLS = List.of("fedbpt-seed1", "fedbpt-seed2", "fedavg-bbt-seed1", "fedavg-bbt-seed2");

    @BeforeEach
    void setUp() throws Exception {
        results = dir.resolve("results");
        sweepFile = dir.resolve("tiny.conf");
        Files.writeString(sweepFile, """
                sweep {
                  out = "%s"
                  set {
                    model.backend = "synthetic"
                    experiment { rounds = 2, eval-every = 2 }
                    federation { clients = 2, round-deadline = 60s }
                    search { dimension = 12, local-iterations = 2, population = 4 }
                    data.shots-per-class = 4
                  }
                  grids = [ { axes = [
                    { name = "method", key = "experiment.method", values = ["fedbpt", "fedavg-bbt"] }
                    { name = "seed", key = "experiment.seed", prefix = "seed", values = [1, 2] }
                  ] } ]
                }
                """.formatted(results.toString().replace("\\", "\\\\")));
    }

    private String stdout() {
        return console.stdout();
    }

    private int sweep(String... options) {
        console.reset();
        List<String> args = new ArrayList<>(List.of("sweep", sweepFile.toString()));
        args.addAll(List.of(options));
        return Main.execute(args.toArray(String[]::new));
    }

    private byte[] result(String cell) throws Exception {
        return Files.readAllBytes(results.resolve(cell).resolve("result.json"));
    }

    private JsonNode index() throws Exception {
        return new ObjectMapper().readTree(results.resolve("sweep.json").toFile());
    }

    @Test
    void runsEveryCellThenSkipsThemAllWhenRunAgain() throws Exception {
        assertEquals(Main.OK, sweep(), stdout() + console.stderr());
        assertTrue(stdout().contains("4 cells in " + results + ": 0 finished, 0 partial, 4 new"), stdout());
        assertTrue(stdout().contains("cell 3/4 fedavg-bbt-seed1: starting"), stdout());
        assertTrue(stdout().contains("    round   2/2"), stdout());
        assertTrue(stdout().contains("fedbpt: sweep: 4 cells to run, untimed: no finished run does the same work"),
                stdout());
        assertTrue(stdout().contains("fedbpt: sweep: 3 cells to run, about "), "timed by the first: " + stdout());
        List<byte[]> first = new ArrayList<>();
        for (String cell : CELLS) {
            first.add(result(cell));
            JsonNode result = new ObjectMapper().readTree(first.get(first.size() - 1));
            assertEquals(cell, result.get("experiment").asText());
        }
        JsonNode index = index();
        assertEquals(4, index.get("cells").size());
        for (int i = 0; i < 4; i++) {
            JsonNode cell = index.get("cells").get(i);
            assertEquals(CELLS.get(i), cell.get("name").asText());
            assertEquals(CELLS.get(i), cell.get("folder").asText());
            assertEquals("finished", cell.get("status").asText());
        }
        JsonNode overrides = index.get("cells").get(2).get("overrides");
        assertEquals(List.of("experiment.method=\"fedavg-bbt\"", "experiment.seed=1", "experiment.name=\"fedavg-bbt-seed1\""),
                List.of(overrides.get(overrides.size() - 3).asText(), overrides.get(overrides.size() - 2).asText(),
                        overrides.get(overrides.size() - 1).asText()));

        assertEquals(Main.OK, sweep(), stdout() + console.stderr());
        assertTrue(stdout().contains("4 finished, 0 partial, 0 new"), stdout());
        assertTrue(stdout().contains("fedbpt: sweep: nothing to run"), stdout());
        assertEquals(4, stdout().split("finished, skipped", -1).length - 1, stdout());
        for (int i = 0; i < 4; i++) {
            assertTrue(Arrays.equals(first.get(i), result(CELLS.get(i))), CELLS.get(i));
        }
    }

    @Test
    void aStoppedCellIsResumedAndFinishesWithTheSameResult() throws Exception {
        assertEquals(Main.OK, sweep("--only", "fedbpt-seed1"), stdout() + console.stderr());
        assertTrue(stdout().contains("--only selects 1 of them"), stdout());
        assertFalse(Files.exists(results.resolve("fedbpt-seed2")));
        String sha = new ObjectMapper().readTree(result("fedbpt-seed1")).get("global_mean_sha256").asText();
        Files.delete(results.resolve("fedbpt-seed1").resolve("result.json"));

        assertEquals(Main.OK, sweep("--dry-run"), stdout() + console.stderr());
        assertTrue(stdout().contains("0 finished, 1 partial, 3 new"), stdout());
        assertFalse(Files.exists(results.resolve("fedbpt-seed2")));

        assertEquals(Main.OK, sweep("--only", "seed1"), stdout() + console.stderr());
        assertTrue(stdout().contains("cell 1/2 fedbpt-seed1: resuming"), stdout());
        assertEquals(sha, new ObjectMapper().readTree(result("fedbpt-seed1")).get("global_mean_sha256").asText());
        assertEquals("new", index().get("cells").get(1).get("status").asText());
        assertEquals("finished", index().get("cells").get(2).get("status").asText());
    }

    /** What a fresh checkout holds of a stopped cell: its files and checkpoint, not the git-ignored journal. */
    @Test
    void aStoppedCellCarriedAsItsCheckpointIsPartialAndResumesToTheSameResult() throws Exception {
        assertEquals(Main.OK, sweep("--only", "fedbpt-seed1"), stdout() + console.stderr());
        Path cell = results.resolve("fedbpt-seed1");
        String sha = new ObjectMapper().readTree(result("fedbpt-seed1")).get("global_mean_sha256").asText();
        Files.delete(cell.resolve("result.json"));
        assertEquals(Main.OK, Main.execute("checkpoint", cell.toString()), console.stderr());
        Files.delete(cell.resolve("journal.mv.db"));

        assertEquals(Main.OK, sweep("--dry-run"), stdout() + console.stderr());
        assertTrue(stdout().contains("0 finished, 1 partial, 3 new"), stdout());
        assertEquals(Main.OK, sweep("--only", "fedbpt-seed1"), stdout() + console.stderr());
        assertTrue(stdout().contains("journal rebuilt from checkpoint.sql.gz"), stdout());
        assertEquals(sha, new ObjectMapper().readTree(result("fedbpt-seed1")).get("global_mean_sha256").asText());
        assertFalse(Files.exists(cell.resolve("checkpoint.sql.gz")), "a finished cell deletes its checkpoint");
    }

    @Test
    void theIndexNamesTheExecutionSettingsAFinishedCellRanWithOtherThanTheSweepFileAsks() throws Exception {
        assertEquals(Main.OK, sweep("--only", "fedbpt-seed1"), stdout() + console.stderr());
        assertFalse(index().get("cells").get(0).has("execution_changes"), index().toString());

        assertEquals(Main.OK, sweep("--only", "fedbpt-seed1", "--set", "pool.workers=3"),
                stdout() + console.stderr());
        assertTrue(stdout().contains("cell 1/1 fedbpt-seed1: finished, skipped"),
                "only execution changed: " + stdout());
        JsonNode cell = index().get("cells").get(0);
        assertEquals("finished", cell.get("status").asText());
        assertTrue(cell.get("overrides").toString().contains("pool.workers=3"), cell.toString());
        assertEquals("[\"pool.workers 1 -> 3\"]", cell.get("execution_changes").toString());
        assertFalse(index().get("cells").get(1).has("execution_changes"), "a new cell ran with nothing yet");
    }

    @Test
    void changedSettingsAreRefusedBeforeAnythingRuns() throws Exception {
        assertEquals(Main.OK, sweep("--only", "fedbpt-seed1"), stdout() + console.stderr());
        assertEquals(Main.BAD_INPUT, sweep("--set", "experiment.rounds=3"));
        assertTrue(console.stderr().contains("hold an experiment with other settings"), console.stderr());
        assertFalse(Files.exists(results.resolve("fedbpt-seed2")));
    }

    @Test
    void aFailingCellIsReportedAndTheSweepGoesOn() throws Exception {
        Files.writeString(sweepFile, Files.readString(sweepFile).replace(
                "{ name = \"method\", key = \"experiment.method\", values = [\"fedbpt\", \"fedavg-bbt\"] }",
                "{ name = \"data\", values = [{ label = \"missing\", set { data.train = \"/nonexistent/train.tsv\" } }, "
                        + "{ label = \"sample\", set { data.split = \"iid\" } }] }"));
        assertEquals(Main.FAILURE, sweep("--only", "seed1"), stdout() + console.stderr());
        assertTrue(console.stderr().contains("cell 1/2 missing-seed1: failed: ")
                && console.stderr().contains("/nonexistent/train.tsv"), console.stderr());
        assertTrue(stdout().contains("cell 2/2 sample-seed1: finished: "), stdout());
        assertEquals("failed", index().get("cells").get(0).get("status").asText());
        assertTrue(index().get("cells").get(0).get("failure").asText().contains("/nonexistent/train.tsv"));
        assertEquals("finished", index().get("cells").get(2).get("status").asText());
    }

    @Test
    void aBadSweepFileIsBadInputAndRunsNothing() throws Exception {
        Files.writeString(sweepFile, Files.readString(sweepFile).replace("\"fedavg-bbt\"]", "\"fedavg-btt\"]"));
        assertEquals(Main.BAD_INPUT, sweep());
        String message = console.stderr();
        assertTrue(message.contains("sweep file " + sweepFile) && message.contains("axis 'method', value 'fedavg-btt'"),
                message);
        assertFalse(Files.exists(results));
    }

    /** The tiny sweep as split x method (centralised BBT, FedBPT), seed 1 only. */
    private void useSplitGrid() throws Exception {
        Files.writeString(sweepFile, Files.readString(sweepFile).replace(
                "{ name = \"method\", key = \"experiment.method\", values = [\"fedbpt\", \"fedavg-bbt\"] }",
                "{ name = \"split\", key = \"data.split\", values = [\"iid\", \"dirichlet\"] }\n"
                        + "{ name = \"method\", key = \"experiment.method\", values = [\"centralised-bbt\", \"fedbpt\"] }")
                .replace("values = [1, 2]", "values = [1]"));
    }

    @Test
    void aCellWhoseMethodDoesNotReadTheSplitTakesTheRunOfItsFinishedTwin() throws Exception {
        useSplitGrid();
        assertEquals(Main.OK, sweep(), stdout() + console.stderr());
        assertTrue(stdout().contains("cell 3/4 dirichlet-centralised-bbt-seed1: same run as iid-centralised-bbt-seed1 "
                + "(centralised-bbt does not read data.split, data.dirichlet-alpha), result copied"), stdout());
        assertTrue(stdout().contains("  new       dirichlet-centralised-bbt-seed1  (same run as iid-centralised-bbt-seed1)"),
                stdout());
        assertTrue(stdout().contains("cell 4/4 dirichlet-fedbpt-seed1: starting"), stdout());
        assertTrue(stdout().contains("3 cells run, 1 copied from the same run, 0 skipped"), stdout());

        Path ran = results.resolve("iid-centralised-bbt-seed1");
        Path copy = results.resolve("dirichlet-centralised-bbt-seed1");
        assertEquals(Files.readString(ran.resolve("metrics.jsonl")), Files.readString(copy.resolve("metrics.jsonl")));
        JsonNode original = new ObjectMapper().readTree(result("iid-centralised-bbt-seed1"));
        JsonNode copied = new ObjectMapper().readTree(result("dirichlet-centralised-bbt-seed1"));
        assertEquals(original.get("global_mean_sha256"), copied.get("global_mean_sha256"));
        assertEquals(original.get("final_accuracy"), copied.get("final_accuracy"));
        assertEquals("dirichlet-centralised-bbt-seed1", copied.get("experiment").asText());
        assertEquals("iid-centralised-bbt-seed1", copied.get("same_run_as").asText());
        assertFalse(original.has("same_run_as"));
        assertTrue(Files.readString(copy.resolve("config.conf")).contains("split=dirichlet"));
        assertFalse(Files.exists(copy.resolve("journal.mv.db")), "nothing was computed for the copy");
        String fedbptIid = new ObjectMapper().readTree(result("iid-fedbpt-seed1")).get("global_mean_sha256").asText();
        String fedbptDirichlet = new ObjectMapper().readTree(result("dirichlet-fedbpt-seed1"))
                .get("global_mean_sha256").asText();
        assertFalse(fedbptIid.equals(fedbptDirichlet), "FedBPT reads the split: both cells ran");

        assertEquals(Main.OK, sweep(), stdout() + console.stderr());
        assertTrue(stdout().contains("4 finished, 0 partial, 0 new"), stdout());
        assertTrue(stdout().contains("fedbpt: sweep: nothing to run"), stdout());
        assertEquals("finished", index().get("cells").get(2).get("status").asText());
    }

    @Test
    void aCopyThatFailsIsReportedAndTheSweepGoesOn() throws Exception {
        useSplitGrid();
        assertEquals(Main.OK, sweep("--only", "iid-centralised"), stdout() + console.stderr());
        Files.writeString(results.resolve("iid-centralised-bbt-seed1").resolve("result.json"), "{ not json");

        assertEquals(Main.FAILURE, sweep(), stdout() + console.stderr());
        assertTrue(console.stderr().contains("cell 3/4 dirichlet-centralised-bbt-seed1: failed: cannot copy the run of "
                + "iid-centralised-bbt-seed1"), console.stderr());
        assertTrue(stdout().contains("cell 4/4 dirichlet-fedbpt-seed1: finished"), stdout());
        assertEquals("failed", index().get("cells").get(2).get("status").asText());
        assertFalse(Files.exists(results.resolve("dirichlet-centralised-bbt-seed1").resolve("result.json")));
    }
}
