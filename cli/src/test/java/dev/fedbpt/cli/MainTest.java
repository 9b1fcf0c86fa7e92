package dev.fedbpt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Exit codes and messages of the command line; runs use the synthetic model so they take seconds. */
class MainTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final ConsoleCapture console = new ConsoleCapture();

    private String stderr() {
        return console.stderr();
    }

    private String stdout() {
        return console.stdout();
    }

    @Test
    void benchTakesTheSystemBenchmarksOptionsAsTheReadmeSaysItDoes() {
        // Parsing only: running the benchmark takes a minute. `fedbpt bench --json` was once refused.
        picocli.CommandLine.ParseResult parsed = new picocli.CommandLine(new Main())
                .parseArgs("bench", "--json", "--rounds", "2", "--set", "pool.workers=1");
        BenchCommand bench = (BenchCommand) parsed.subcommand().commandSpec().userObject();
        assertTrue(bench.system.json);
        assertEquals(2, bench.system.rounds);
        assertEquals(List.of("pool.workers=1"), bench.system.overrides);
        SystemBenchCommand system = (SystemBenchCommand) new picocli.CommandLine(new Main())
                .parseArgs("bench", "system", "--json").subcommand().subcommand().commandSpec().userObject();
        assertTrue(system.options.json);
    }

    @Test
    void benchPrecisionPrintsBothAccuraciesAndTheSpeedupUnderOneStem() throws Exception {
        assertEquals(Main.OK, Main.execute("bench", "precision", "--json", "--batch", "4", "--repeats", "1",
                "--set", "model.intra-op-threads=1"), stderr());
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(stdout());
        assertEquals("all-minilm-l6-v2", json.get("model").asText());
        for (String key : List.of("accuracy_fp32", "accuracy_int8", "agreement")) {
            double value = json.get(key).asDouble();
            assertTrue(value >= 0 && value <= 1, key + " " + value);
        }
        assertTrue(json.get("agreement").asDouble() > 0.9, "int8 classes most rows as fp32 does: " + stdout());
        assertTrue(json.get("speedup").asDouble() > 0, stdout());
        assertEquals(4, json.get("throughput").get(0).get("batch").asInt());
        assertTrue(json.get("throughput").get(0).get("gflops_fp32").asDouble() > 0, stdout());
        var peak = json.get("gemm_peak");
        assertEquals(List.of(2048, 768, 3072), List.of(peak.get("shape").get(0).asInt(),
                peak.get("shape").get(1).asInt(), peak.get("shape").get(2).asInt()));
        assertTrue(peak.get("gflops_fp32").asDouble() > 0 && peak.get("gops_int8").asDouble() > 0, stdout());
    }

    @Test
    void unknownConfigKeyIsBadInputWithSuggestion() {
        assertEquals(Main.BAD_INPUT, Main.execute("run", "--set", "search.sigm0=1", "--out", dir.toString()));
        assertTrue(stderr().contains("did you mean fedbpt.search.sigma0"), stderr());
    }

    @Test
    void experimentFileGivenWithoutConfigIsBadInputThatNamesTheOption() throws IOException {
        Path experiment = Files.writeString(dir.resolve("x.conf"), "experiment.rounds = 1\n");
        assertEquals(Main.BAD_INPUT, Main.execute("run", experiment.toString()));
        assertTrue(stderr().contains("fedbpt run --config " + experiment), stderr());
        Path missing = dir.resolve("missing.conf");
        assertEquals(Main.BAD_INPUT, Main.execute("run", missing.toString()));
        assertTrue(stderr().contains("Unmatched argument") && !stderr().contains("--config " + missing),
                "no hint for a file that is not there: " + stderr());
    }

    @Test
    void missingDatasetFileNamesTheKeyAndFile() {
        assertEquals(Main.BAD_INPUT, Main.execute("run", "--set", "model.backend=synthetic", "--set",
                "data.train=/nonexistent/train.tsv", "--out", dir.resolve("run").toString()));
        assertTrue(stderr().contains("fedbpt.data.train") && stderr().contains("/nonexistent/train.tsv"), stderr());
    }

    @Test
    void modelCheckRefusesADeviceItCannotReadBeforeLoadingAnything() {
        assertEquals(Main.BAD_INPUT, Main.execute("model-check", "--device", "gpu"));
        assertTrue(stderr().contains("--device: expected cpu, cuda or cuda:N"), stderr());
        assertEquals(Main.BAD_INPUT, Main.execute("model-check", "--backend", "pytorch", "--device", "cuda"));
        assertTrue(stderr().contains("the pytorch backend computes on the CPU"), stderr());
    }

    @Test
    void malformedDatasetLineNamesFileAndLine() throws Exception {
        Path train = dir.resolve("bad.tsv");
        Files.writeString(train, "label\ttext\n1\tfine\nx\tbroken label\n");
        Path run = dir.resolve("run");
        assertEquals(Main.BAD_INPUT, Main.execute("run", "--set", "model.backend=synthetic", "--set",
                "data.train=" + train, "--out", run.toString()));
        assertTrue(stderr().contains("bad.tsv:3"), stderr());
        assertFalse(Files.exists(run), "a run refused while reading its data leaves no run folder behind");

        Files.writeString(train, "label\ttext\n1\tfine\n0\tbroken label\n");
        assertEquals(Main.OK, Main.execute("run", "--set", "model.backend=synthetic", "--set", "data.train=" + train,
                "--set", "search.dimension=16", "--set", "search.local-iterations=2", "--set",
                "data.shots-per-class=1", "--set", "federation.clients=2", "--rounds", "1", "--out", run.toString()),
                stderr());
    }

    @Test
    void aRunRefusedInAFolderThatHeldWorkLeavesTheWorkAsItWas() throws IOException {
        Path train = dir.resolve("train.tsv");
        Files.writeString(train, "label\ttext\n1\tfine\n0\tdull\n");
        Path run = dir.resolve("run");
        assertEquals(Main.OK, Main.execute("run", "--set", "model.backend=synthetic", "--set", "data.train=" + train,
                "--set", "search.dimension=16", "--set", "search.local-iterations=2", "--set",
                "data.shots-per-class=1", "--set", "federation.clients=2", "--rounds", "2", "--out", run.toString()),
                stderr());
        Files.delete(run.resolve("result.json"));
        Files.writeString(train, "label\ttext\n1\tfine\nx\tdull\n"); // damaged after the run started
        Map<String, String> before = contents(run);
        assertEquals(Main.BAD_INPUT, Main.execute("resume", run.toString()), stderr());
        assertTrue(stderr().contains("train.tsv:3"), stderr());
        Map<String, String> after = contents(run);
        assertEquals(before.get("config.conf"), after.get("config.conf"), "the stored configuration stays");
        assertEquals(before.get("metrics.jsonl"), after.get("metrics.jsonl"));
        assertTrue(Files.exists(run.resolve("journal.mv.db")), "the journal stays (H2 rewrites its file on open)");

        Files.writeString(train, "label\ttext\n1\tfine\n0\tdull\n");
        assertEquals(Main.OK, Main.execute("resume", run.toString()), stderr());
        assertTrue(Files.exists(run.resolve("result.json")));
    }

    @Test
    void resumeOfAFolderThatIsNoRunIsBadInput() {
        assertEquals(Main.BAD_INPUT, Main.execute("resume", dir.toString()));
        assertTrue(stderr().contains("not a fedbpt run folder"), stderr());
    }

    @Test
    void resumeAndCheckpointOfAMissingFolderSayItDoesNotExist() {
        Path missing = dir.resolve("no-such-run");
        for (String command : List.of("resume", "checkpoint")) {
            assertEquals(Main.BAD_INPUT, Main.execute(command, missing.toString()));
            assertTrue(stderr().contains("run folder " + missing + " does not exist"), stderr());
            assertFalse(Files.exists(missing), command + " creates nothing");
        }
    }

    @Test
    void runThenResumeOfTheFinishedRunPrintsItsResult() {
        Path run = dir.resolve("run");
        int code = Main.execute("run", "--set", "model.backend=synthetic", "--set", "search.dimension=16",
                "--set", "search.local-iterations=2", "--rounds", "2", "--out", run.toString());
        assertEquals(Main.OK, code, stderr());
        assertTrue(stdout().contains("zero-shot accuracy") && stdout().contains("tuned accuracy"), stdout());
        assertTrue(Files.exists(run.resolve("result.json")));
        assertEquals(Main.OK, Main.execute("resume", run.toString()));
        assertTrue(stdout().contains("is finished; its result"), stdout());
    }

    /** A small synthetic run whose result.json is removed, so that resume has to read the journal back. */
    private Path unfinishedRun() throws IOException {
        Path run = dir.resolve("run");
        assertEquals(Main.OK, Main.execute("run", "--set", "model.backend=synthetic", "--set", "search.dimension=16",
                "--set", "search.local-iterations=2", "--rounds", "2", "--out", run.toString()), stderr());
        Files.delete(run.resolve("result.json"));
        return run;
    }

    @Test
    void resumeMayChangeExecutionSettingsOnly() throws IOException {
        Path run = unfinishedRun();
        Map<String, String> before = contents(run);
        assertEquals(Main.BAD_INPUT, Main.execute("resume", run.toString(), "--set", "search.sigma0=0.5"), stderr());
        assertTrue(stderr().contains("fedbpt.search.sigma0") && stderr().contains("execution settings only"), stderr());
        assertEquals(before, contents(run), "nothing in the run folder may change");

        assertEquals(Main.OK, Main.execute("resume", run.toString(), "--set", "pool.workers=2", "--set",
                "fedbpt.model.intra-op-threads=1"), stderr());
        assertTrue(stdout().contains("continuing with other execution settings than config.conf's "
                + "(model.intra-op-threads 0 -> 1, pool.workers 1 -> 2)"), stdout());
        assertTrue(Files.exists(run.resolve("result.json")));
        assertEquals(before.get("config.conf"), contents(run).get("config.conf"), "the stored file is kept as is");
    }

    @Test
    void checkpointOfAStoppedRunResumesInAFolderWithoutItsJournal() throws IOException {
        Path run = unfinishedRun();
        assertEquals(Main.OK, Main.execute("checkpoint", run.toString()), stderr());
        assertTrue(stdout().contains("wrote " + run.toAbsolutePath().resolve("checkpoint.sql.gz")), stdout());
        Files.delete(run.resolve("journal.mv.db")); // what a fresh checkout of the folder holds
        assertEquals(Main.OK, Main.execute("resume", run.toString()), stderr());
        assertTrue(stdout().contains("journal rebuilt from checkpoint.sql.gz"), stdout());
        assertTrue(Files.exists(run.resolve("result.json")));
        assertFalse(Files.exists(run.resolve("checkpoint.sql.gz")), "a finished run deletes its checkpoint");
        assertEquals(Main.OK, Main.execute("checkpoint", run.toString()));
        assertTrue(stdout().contains("is finished"), stdout());
    }

    @Test
    void checkpointOfAFolderWithoutAJournalIsBadInput() throws IOException {
        assertEquals(Main.BAD_INPUT, Main.execute("checkpoint", dir.toString()));
        assertTrue(stderr().contains("not a fedbpt run folder"), stderr());
        Files.writeString(dir.resolve("config.conf"), "fedbpt {}\n");
        assertEquals(Main.BAD_INPUT, Main.execute("checkpoint", dir.toString()));
        assertTrue(stderr().contains("has no journal"), stderr());
    }

    @Test
    void damagedJournalIsBadInputAndLeftUntouched() throws IOException {
        Path run = unfinishedRun();
        Path journal = run.resolve("journal.mv.db");
        byte[] bytes = Files.readAllBytes(journal);
        Arrays.fill(bytes, 0, 8192, (byte) 0x5A); // both copies of the store header overwritten
        Files.write(journal, bytes);
        Map<String, String> before = contents(run);
        assertEquals(Main.BAD_INPUT, Main.execute("resume", run.toString()), stderr());
        assertTrue(stderr().contains("journal"), stderr());
        assertEquals(before, contents(run), "nothing in the run folder may change");
    }

    @Test
    void runFolderWhoseJournalBelongsToAnotherConfigurationIsRefused() throws IOException {
        Path run = unfinishedRun();
        Path config = run.resolve("config.conf");
        ExperimentConfig other = ConfigLoader.load(config, List.of("experiment.seed=43"));
        Files.writeString(config, other.resolvedHocon()); // a hand-edited config: valid, but not the journal's
        Map<String, String> before = contents(run);
        assertEquals(Main.BAD_INPUT, Main.execute("resume", run.toString()), stderr());
        assertTrue(stderr().contains("belongs to another configuration"), stderr());
        assertEquals(before, contents(run), "nothing in the run folder may change");
    }

    @Test
    void modelFileThatIsNoOnnxExportIsBadInput() throws IOException {
        Path notAModel = Files.writeString(dir.resolve("model.onnx"), "not a model");
        Path tokenizer = Files.writeString(dir.resolve("tokenizer.json"), "{}");
        assertEquals(Main.BAD_INPUT, Main.execute("run", "--set", "model.onnx=" + notAModel, "--set",
                "model.tokenizer=" + tokenizer, "--out", dir.resolve("run").toString()));
        assertTrue(stderr().contains(notAModel.toString()) || stderr().contains("model.onnx"), stderr());
    }

    @Test
    void outOfRangeValueNamesTheKeyAndRange() {
        assertEquals(Main.BAD_INPUT, Main.execute("run", "--set", "faults.client-drop-rate=1.5", "--out",
                dir.resolve("run").toString()));
        assertTrue(stderr().contains("fedbpt.faults.client-drop-rate") && stderr().contains("[0.0, 1.0]"), stderr());
    }

    @Test
    void reportCountsTheSeedsNotTheFoldersThatRanThem() throws IOException {
        // The same cell in two sweeps: seed 1 both times.
        for (String sweep : List.of("first", "second")) {
            Path run = Files.createDirectories(dir.resolve("results/" + sweep + "/sst2-fedbpt-seed1"));
            Files.writeString(run.resolve("config.conf"), "fedbpt { data.task = sst2\n"
                    + "experiment { method = fedbpt, seed = 1, name = " + sweep + " } }\n");
            Files.writeString(run.resolve("result.json"), "{\"method\":\"fedbpt\",\"seed\":1,"
                    + "\"profile\":\"paper\",\"rounds_completed\":2,\"final_accuracy\":0.7}\n");
        }
        Path out = dir.resolve("report");
        assertEquals(Main.OK, Main.execute("report", dir.resolve("results").toString(), "--out", out.toString()),
                stderr());
        assertTrue(stdout().contains("report of 2 run(s) in 1 series"), stdout());
        String table = Files.readString(out.resolve("results.md"));
        assertTrue(table.contains("| sst2 | iid | fedbpt | 0.7000 ± n/a | 1 (2 runs) | 2 |"), table);
    }

    /** Every file of a folder (recursively) with a digest of its bytes. */
    private static Map<String, String> contents(Path folder) throws IOException {
        Map<String, String> digests = new TreeMap<>();
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                digests.put(folder.relativize(file).toString(), Arrays.toString(Files.readAllBytes(file)).hashCode()
                        + ":" + Files.size(file));
            }
        }
        return digests;
    }

    @Test
    void runHelpListsTheMethodsAndPointsToTheDefaultsFile() {
        assertEquals(Main.OK, Main.execute("run", "--help"));
        for (String method : dev.fedbpt.engine.method.Methods.names()) {
            assertTrue(stdout().contains(method), method + " in: " + stdout());
        }
        assertTrue(stdout().contains("fedbpt-defaults.conf"), stdout());
    }

    @Test
    void aRunOfOneRoundSaysSoAndARunOpenedAgainDidNotRunNow() {
        Path run = dir.resolve("once");
        String[] args = {"run", "--set", "model.backend=synthetic", "--set", "search.dimension=16",
                "--set", "search.local-iterations=2", "--set", "federation.clients=1", "--rounds", "1",
                "--out", run.toString()};
        assertEquals(Main.OK, Main.execute(args), stderr());
        assertTrue(stdout().contains("1 round, ") && !stdout().contains("1 rounds"), stdout());
        assertTrue(stdout().contains("1 client,") && !stdout().contains("1 clients"), stdout());
        int before = stdout().length();
        assertEquals(Main.OK, Main.execute(args), stderr());
        String again = stdout().substring(before);
        assertTrue(again.contains("finished before; nothing ran now") && !again.matches("(?s).*\\d+\\.\\d s\\).*"),
                again);
    }

    @Test
    void aMethodThatRunsNoRoundsHasAnAccuracyNotATunedOne() {
        assertEquals(Main.OK, Main.execute("run", "--set", "model.backend=synthetic", "--set",
                "experiment.method=zero-shot", "--out", dir.resolve("zs").toString()), stderr());
        assertTrue(stdout().contains("nothing tuned") && !stdout().contains("tuned accuracy"), stdout());
        assertFalse(stdout().contains("tuning raised") || stdout().contains("tuning LOWERED"), stdout());
    }
}
