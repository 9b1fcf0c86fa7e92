package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.config.RunLayout;
import dev.fedbpt.persistence.JournalSchema;
import dev.fedbpt.persistence.JournalSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentRunnerTest {
    @TempDir
    Path dir;

    @Test
    void sameSeedGivesSameHashAndCompleteOutputs() {
        ExperimentConfig config = TestRuns.config();
        ExperimentRunner.Outcome first = TestRuns.run(config, dir.resolve("a"), FaultInjector.NONE);
        ExperimentRunner.Outcome second = TestRuns.run(config, dir.resolve("b"), FaultInjector.NONE);
        assertTrue(first.succeeded(), first.failure());
        assertTrue(second.succeeded(), second.failure());
        JsonNode a = TestRuns.result(dir.resolve("a"));
        assertEquals(a.get("global_mean_sha256").asText(),
                TestRuns.result(dir.resolve("b")).get("global_mean_sha256").asText());
        assertEquals(4, a.get("rounds_completed").asInt());
        assertEquals("fedbpt", a.get("method").asText());
        assertTrue(a.get("zero_shot_accuracy").isNumber());
        assertTrue(a.get("final_accuracy").isNumber());

        List<JsonNode> metrics = TestRuns.metrics(dir.resolve("a"));
        assertEquals(4, metrics.size());
        for (String key : List.of("round", "sampled", "reported", "dropped", "mean_client_loss", "sigma",
                "test_accuracy", "bytes_up", "bytes_down", "forward_rows", "wall_ms")) {
            assertTrue(metrics.get(0).has(key), "metrics.jsonl lacks " + key);
        }
        assertTrue(metrics.get(0).get("test_accuracy").isNull(), "round 1 is not an evaluation round");
        assertTrue(metrics.get(1).get("test_accuracy").isNumber());
        assertTrue(metrics.get(0).get("eval_ms").isNull(), "round 1 is not an evaluation round");
        assertTrue(metrics.get(1).get("eval_ms").asLong() >= 0, "round 2's evaluation is timed");
        assertEquals(4, metrics.get(0).get("reported").asInt());
        // d + I + 1 doubles a client, counted from the encoded upload: 24 and 3 numbers after a width byte and their
        // length, the loss, and 15 bytes of kind, round, client, samples and two presence flags.
        assertEquals(4L * ((24 + 3 + 1) * 8 + 2 * 5 + 15), metrics.get(0).get("bytes_up").asLong());
        assertTrue(metrics.get(0).get("forward_rows").asLong() > 0);
        for (JsonNode round : metrics) {
            JsonNode clients = round.get("clients");
            assertEquals(List.of(0, 1, 2, 3), ids(clients), "every reporting client, by id");
            double sum = 0;
            for (JsonNode client : clients) {
                sum += client.get("loss").asDouble();
                assertTrue(client.get("samples").asInt() > 0);
            }
            assertEquals(round.get("mean_client_loss").asDouble(), sum / clients.size(), 1e-12);
        }
    }

    private static List<Integer> ids(JsonNode clients) {
        List<Integer> ids = new ArrayList<>();
        clients.forEach(client -> ids.add(client.get("id").asInt()));
        return ids;
    }

    @Test
    void anotherSeedGivesAnotherHash() {
        TestRuns.run(TestRuns.config(), dir.resolve("a"), FaultInjector.NONE);
        TestRuns.run(TestRuns.config("experiment.seed=7"), dir.resolve("b"), FaultInjector.NONE);
        assertNotEquals(TestRuns.result(dir.resolve("a")).get("global_mean_sha256").asText(),
                TestRuns.result(dir.resolve("b")).get("global_mean_sha256").asText());
    }

    @Test
    void clientCrashingEveryRoundIsDroppedAndTheRunFinishes() {
        FaultInjector crashingClient = new FaultInjector() {
            @Override
            public ClientFault clientFault(int round, int attempt, int clientId) {
                return clientId == 1 ? new ClientFault(false, 2, Duration.ZERO) : ClientFault.NONE;
            }
        };
        ExperimentRunner.Outcome outcome = TestRuns.run(TestRuns.config(), dir, crashingClient);
        assertTrue(outcome.succeeded(), outcome.failure());
        for (JsonNode round : TestRuns.metrics(dir)) {
            assertEquals(1, round.get("dropped").asInt());
            assertEquals(3, round.get("reported").asInt());
            assertEquals(List.of(0, 2, 3), ids(round.get("clients")), "the dropped client uploaded nothing");
        }
    }

    @Test
    void workerFailingOnABatchIsRestartedAndTheResultIsUnchanged() {
        ExperimentConfig config = TestRuns.config();
        TestRuns.run(config, dir.resolve("clean"), FaultInjector.NONE);
        FaultInjector failingWorker = new FaultInjector() {
            @Override
            public boolean workerCrashes(int worker, long batchId) {
                return batchId == 3 || batchId == 10;
            }
        };
        ExperimentRunner.Outcome outcome = TestRuns.run(config, dir.resolve("faulty"), failingWorker);
        assertTrue(outcome.succeeded(), outcome.failure());
        assertEquals(TestRuns.result(dir.resolve("clean")).get("global_mean_sha256").asText(),
                TestRuns.result(dir.resolve("faulty")).get("global_mean_sha256").asText());
        TestRuns.metrics(dir.resolve("faulty")).forEach(round -> assertEquals(0, round.get("dropped").asInt()));
    }

    @Test
    void runningAFinishedRunAgainChangesNothing() {
        ExperimentConfig config = TestRuns.config();
        TestRuns.run(config, dir, FaultInjector.NONE);
        String hash = TestRuns.result(dir).get("global_mean_sha256").asText();
        ExperimentRunner.Outcome again = TestRuns.run(config, dir, FaultInjector.NONE);
        assertTrue(again.succeeded(), again.failure());
        assertEquals(hash, TestRuns.result(dir).get("global_mean_sha256").asText());
        assertEquals(4, TestRuns.metrics(dir).size());
    }

    @Test
    void aRunFolderOfAnotherExperimentIsRefused() {
        TestRuns.run(TestRuns.config(), dir, FaultInjector.NONE);
        ConfigError error = assertThrows(ConfigError.class,
                () -> TestRuns.run(TestRuns.config("experiment.seed=99"), dir, FaultInjector.NONE));
        assertTrue(error.getMessage().contains("holds another experiment"), error.getMessage());
        assertNotNull(TestRuns.result(dir));
    }

    /** A stop signal ends the run before the JVM's shutdown hooks: models closed, the journal resumable. */
    @Test
    void stopAllEndsARunningExperimentWithItsModelsClosedAndItResumes() throws Exception {
        ExperimentConfig config = TestRuns.config("experiment.rounds=30");
        java.util.concurrent.CompletableFuture<ExperimentRunner.Outcome> running =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> TestRuns.run(config, dir));
        try {
            while (!Files.exists(dir.resolve(RunLayout.METRICS_FILE)) && !running.isDone()) {
                Thread.sleep(20); // the first round has completed
            }
            assertTrue(ActiveRuns.stopAll(Duration.ofSeconds(30)), "the run ended in time");
            ExperimentRunner.Outcome stopped = running.get();
            assertFalse(stopped.succeeded());
            assertTrue(stopped.failure().startsWith("by a signal"), stopped.failure());
        } finally {
            ActiveRuns.clearStop();
        }
        ExperimentRunner.Outcome resumed = TestRuns.run(config, dir);
        assertTrue(resumed.succeeded(), resumed.failure());
        ExperimentRunner.Outcome uninterrupted = TestRuns.run(config, dir.resolveSibling(dir.getFileName() + "-whole"));
        assertEquals(hash(uninterrupted), hash(resumed), "stopped and resumed, the same bytes");
    }

    private static Object hash(ExperimentRunner.Outcome outcome) {
        return outcome.outputs().result(outcome.outputs().finalState()).get("global_mean_sha256");
    }

    /** So that the corrected configuration starts in the same folder instead of finding another experiment there. */
    @Test
    void aMissingDatasetFileIsRefusedNamingTheKeyBeforeTheRunFolderIsClaimed() {
        ConfigError error = assertThrows(ConfigError.class,
                () -> TestRuns.run(TestRuns.config("data.test=no/such/dev.tsv"), dir, FaultInjector.NONE));
        assertEquals("fedbpt.data.test", error.key());
        assertTrue(error.getMessage().contains("no/such/dev.tsv") && error.getMessage().contains("does not exist"),
                error.getMessage());
        assertFalse(Files.exists(dir.resolve(RunFolder.CONFIG_FILE)), "nothing was stored");
        assertTrue(TestRuns.run(TestRuns.config(), dir, FaultInjector.NONE).succeeded());
    }

    @Test
    void aCudaDeviceThisBuildLacksIsRefusedNamingTheKeyBeforeTheRunFolderIsClaimed() {
        Assumptions.assumeTrue(getClass().getResource(
                "/ai/onnxruntime/native/linux-x64/libonnxruntime_providers_cuda.so") == null,
                "this build carries ONNX Runtime's CUDA provider (the gpu profile)");
        ConfigError error = assertThrows(ConfigError.class, () -> TestRuns.run(
                TestRuns.config("model.backend=onnx", "model.device=cuda:1"), dir, FaultInjector.NONE));
        assertEquals("fedbpt.model.device", error.key());
        assertTrue(error.getMessage().contains("CUDA device 1") && error.getMessage().contains("-Pgpu"),
                error.getMessage());
        assertFalse(Files.exists(dir.resolve(RunFolder.CONFIG_FILE)), "nothing was stored");
    }

    @Test
    void aRunFolderStoredBeforeNewKeysExistedIsContinuedWithTheirDefaults() throws Exception {
        ExperimentConfig config = TestRuns.config();
        // With the journal that the older fedbpt's run started.
        String older = storedByAnOlderFedbpt(config);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(RunFolder.CONFIG_FILE), older);
        JournalSchema.open(dir, ExperimentConfig.hashOf(older));
        assertTrue(TestRuns.run(config, dir).succeeded());
        Files.delete(dir.resolve("result.json"));
        ExperimentRunner.Outcome resumed = TestRuns.run(config, dir);
        assertTrue(resumed.succeeded(), resumed.failure());
        assertEquals(older, Files.readString(dir.resolve(RunFolder.CONFIG_FILE)), "the stored file is kept as is");
        assertEquals(ExperimentConfig.hashOf(older), TestRuns.result(dir).get("config_hash").asText());
        assertTrue(RunFolder.holdsAnotherExperiment(dir, TestRuns.config("experiment.seed=5")));
    }

    @Test
    void aRunFolderWithoutJournalOrResultStoresTheConfigurationThatRunsThere() throws Exception {
        ExperimentConfig config = TestRuns.config();
        String older = storedByAnOlderFedbpt(config);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(RunFolder.CONFIG_FILE), older);
        assertTrue(TestRuns.run(config, dir).succeeded());
        assertEquals(config.resolvedHocon(), Files.readString(dir.resolve(RunFolder.CONFIG_FILE)),
                "nothing had been computed under the older file, so the folder now holds this run's");
        assertEquals(config.canonicalHash(), TestRuns.result(dir).get("config_hash").asText());
        assertThrows(ConfigError.class, () -> TestRuns.run(TestRuns.config("experiment.seed=5"), dir),
                "a finished folder still refuses another experiment");
    }

    /** {@code config}'s file as an older fedbpt that knew no faults section wrote it. */
    private static String storedByAnOlderFedbpt(ExperimentConfig config) {
        String older = config.resolvedHocon().replaceAll("(?s)\\n\\s*faults\\s*\\{[^}]*}", "");
        assertTrue(older.length() < config.resolvedHocon().length() && !older.contains("client-drop-rate"));
        return older;
    }

    @Test
    void executionSettingsDoNotChangeTheRun() {
        TestRuns.run(TestRuns.config(), dir.resolve("one-worker"));
        TestRuns.run(TestRuns.config("pool.workers=3", "pool.max-batch-rows=7", "model.intra-op-threads=1",
                "persistence.snapshot-every=1"), dir.resolve("three-workers"));
        assertEquals(TestRuns.result(dir.resolve("one-worker")).get("global_mean_sha256"),
                TestRuns.result(dir.resolve("three-workers")).get("global_mean_sha256"));
        assertEquals(TestRuns.config().runIdentity(), TestRuns.config("pool.workers=3").runIdentity());
    }

    @Test
    void aRunFolderContinuesWithOtherExecutionSettingsButNoOtherChange() throws Exception {
        ExperimentConfig config = TestRuns.config();
        assertTrue(TestRuns.run(config, dir).succeeded());
        String stored = Files.readString(dir.resolve(RunFolder.CONFIG_FILE));
        String hash = TestRuns.result(dir).get("global_mean_sha256").asText();
        Files.delete(dir.resolve("result.json"));

        ExperimentConfig moreWorkers = TestRuns.config("pool.workers=2", "model.intra-op-threads=1");
        assertFalse(RunFolder.holdsAnotherExperiment(dir, moreWorkers));
        ExperimentRunner.Outcome resumed = TestRuns.run(moreWorkers, dir);
        assertTrue(resumed.succeeded(), resumed.failure());
        assertEquals(hash, TestRuns.result(dir).get("global_mean_sha256").asText());
        assertEquals(stored, Files.readString(dir.resolve(RunFolder.CONFIG_FILE)), "the stored file is kept as is");
        assertEquals(config.canonicalHash(), TestRuns.result(dir).get("config_hash").asText(),
                "the result names the stored configuration, which the journal records");
        assertTrue(RunFolder.holdsAnotherExperiment(dir, TestRuns.config("pool.workers=2", "search.sigma0=0.5")));
    }

    @Test
    void theJournalKeepsTheEventsOfTheLastSnapshotsOnlyAndStillRecovers() throws Exception {
        // FedAvg-BBT: its results carry covariances, the events that made journals grow. 4 clients: a round opens,
        // accepts 4 results and closes, so a snapshot every 6 events; the newest 2 snapshots and their events stay.
        ExperimentConfig config = TestRuns.config("experiment.method=fedavg-bbt", "experiment.rounds=12",
                "persistence.snapshot-every=1");
        assertTrue(TestRuns.run(config, dir).succeeded());
        long[] events = journalCounts("SELECT COUNT(*), MAX(\"sequence_number\") FROM \"event_journal\"");
        long[] snapshots = journalCounts("SELECT COUNT(*), MAX(\"sequence_number\") FROM \"snapshot\"");
        assertTrue(events[1] >= 12 * 6, "every round's events were written: " + events[1]);
        assertTrue(events[0] <= 3 * 6 + 1, events[0] + " of " + events[1] + " events kept");
        assertTrue(snapshots[0] >= 1 && snapshots[0] <= 3, snapshots[0] + " snapshots kept");

        String hash = TestRuns.result(dir).get("global_mean_sha256").asText();
        Files.delete(dir.resolve("result.json"));
        assertTrue(TestRuns.run(config, dir).succeeded(), "recovers from the newest snapshot and the events after it");
        assertEquals(hash, TestRuns.result(dir).get("global_mean_sha256").asText());
        assertEquals(12, TestRuns.metrics(dir).size(), "every round's metrics come back from the snapshot");
        TestRuns.metrics(dir).forEach(round -> assertEquals(List.of(0, 1, 2, 3), ids(round.get("clients"))));
        assertEquals(hash, uninterruptedHash(config), "the same run as one that keeps its whole journal");
    }

    private String uninterruptedHash(ExperimentConfig config) {
        ExperimentConfig whole = TestRuns.config("experiment.method=fedavg-bbt", "experiment.rounds=12",
                "persistence.snapshot-every=1000");
        assertEquals(config.runIdentity(), whole.runIdentity());
        assertTrue(TestRuns.run(whole, dir.resolve("whole")).succeeded());
        return TestRuns.result(dir.resolve("whole")).get("global_mean_sha256").asText();
    }

    /** The two numbers a query of the run folder's journal returns. */
    private long[] journalCounts(String query) throws Exception {
        try (Connection connection = DriverManager.getConnection(JournalSettings.jdbcUrl(dir), "sa", "");
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(query)) {
            row.next();
            return new long[] {row.getLong(1), row.getLong(2)};
        }
    }
}
