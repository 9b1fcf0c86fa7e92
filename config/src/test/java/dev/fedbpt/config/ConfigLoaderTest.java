package dev.fedbpt.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.method.MethodSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    /** {@code config} as a run folder stored before {@code leafKeys} existed would hold it. */
    private static String storedWithout(ExperimentConfig config, String... leafKeys) {
        String pattern = "(?m)^\\s*\"?(" + String.join("|", leafKeys) + ")\"?\\s*[=:].*\\R";
        String without = config.resolvedHocon().replaceAll(pattern, "");
        for (String key : leafKeys) {
            assertFalse(without.matches("(?s).*\\b" + key + "\"?\\s*[=:].*"), key + " still in " + without);
        }
        return without;
    }

    /** The settings a run folder holding {@code stored} is read with. */
    private MethodSettings runFolder(String stored) throws IOException {
        Path file = dir.resolve("config.conf");
        Files.writeString(file, stored);
        return ConfigLoader.loadRunFolder(file, List.of()).settings();
    }

    /** A white-box method's older folder read as it ran, and as a black-box method's that never read the keys. */
    private static String asBlackBox(String stored, String method) {
        return stored.replace("method=" + method, "method=fedbpt").replace("backend=pytorch", "backend=onnx");
    }

    /**
     * The prefix starts as FedPepTAO's code draws it (transformers 4.6.0 re-initialises the PrefixEncoder's
     * embedding N(0, 0.02^2)); a run folder stored before the reading was named keeps the embedding's draw it ran
     * with, so a change of reading is a change of a named setting, never silently of a result.
     */
    @Test
    void thePrefixStartsAsFedPepTaosCodeDrawsItAndOlderFoldersAsTheyRan() throws IOException {
        ExperimentConfig config = ConfigLoader.load(null, List.of("experiment.method=fedp-tuning",
                "model.backend=pytorch"));
        assertEquals("code", config.settings().text("gradient.prefix-init"));
        String without = storedWithout(config, "prefix-init");
        assertTrue(without.contains("prefix-init-std"), without);
        assertEquals("embedding", runFolder(without).text("gradient.prefix-init"));
        // A black-box method never read the prefix: its older folder reads the default, the same as a new cell.
        assertEquals("code", runFolder(asBlackBox(without, "fedp-tuning")).text("gradient.prefix-init"));
    }

    /** FedP-tuning trains FedBPT's code's prompt encoder; a white-box folder stored before that trained a prefix. */
    @Test
    void fedPTuningTrainsThePromptEncoderAndOlderFoldersThePrefix() throws IOException {
        ExperimentConfig config = ConfigLoader.load(null, List.of("experiment.method=fedp-tuning",
                "model.backend=pytorch"));
        assertEquals("prompt-encoder", config.settings().text("gradient.fedp-tuning"));
        assertEquals("prefix", runFolder(storedWithout(config, "fedp-tuning")).text("gradient.fedp-tuning"));
        ExperimentConfig code = ConfigLoader.load(Path.of("../experiments/sst2-iid-fedp-tuning.conf"), List.of());
        assertEquals("fedp-tuning", code.experiment().method());
        assertEquals(5, code.settings().integer("gradient.local-epochs"), "the experiment file includes the paper's");
        assertEquals(40, code.settings().integer("data.shots-per-class"));
    }

    /**
     * FedPepTAO's server steps chain as its code's do and its global prefix hides the unselected layers; a white-box
     * folder stored before those readings keeps its own.
     */
    @Test
    void fedPepTaosDeviceStepsChainAndOlderFoldersStepAsTheyRan() throws IOException {
        ExperimentConfig config = ConfigLoader.load(null, List.of("experiment.method=fedpeptao",
                "model.backend=pytorch"));
        assertEquals("chained", config.settings().text("fedpeptao.device-steps"));
        assertEquals("masked", config.settings().text("fedpeptao.unselected-layers"));
        String without = storedWithout(config, "device-steps", "unselected-layers");
        assertEquals("independent", runFolder(without).text("fedpeptao.device-steps"));
        assertEquals("start", runFolder(without).text("fedpeptao.unselected-layers"),
                "older folders scored the prefix as the server held it");
        assertEquals("chained", runFolder(asBlackBox(without, "fedpeptao")).text("fedpeptao.device-steps"));
    }

    @Test
    void dlsEcsAlphaIsAShareAndOlderFoldersWeighedItAsPrinted() throws IOException {
        ExperimentConfig config = ConfigLoader.load(null, List.of("experiment.method=dls-ec"));
        assertEquals("max-correlation", config.settings().text("dls-ec.alpha-scale"));
        String without = storedWithout(config, "alpha-scale");
        assertEquals("absolute", runFolder(without).text("dls-ec.alpha-scale"));
        assertEquals("max-correlation", runFolder(without.replace("method=dls-ec", "method=fedbpt"))
                .text("dls-ec.alpha-scale"), "other methods read the default, which changes nothing they computed");
    }

    @Test
    void dlsEcPostTunesOnHeldApartRowsAndOlderFoldersOnTheirTrainingRows() throws IOException {
        ExperimentConfig config = ConfigLoader.load(null, List.of("experiment.method=bbt-fed"));
        assertEquals("held-apart", config.settings().text("dls-ec.post-tuning.rows"));
        assertEquals(16, config.settings().integer("dls-ec.post-tuning.shots-per-class"));
        assertEquals(100, config.settings().integer("dls-ec.post-tuning.eval-every"));
        // only post-tuning's rows key has the value held-apart
        String without = config.resolvedHocon().replaceAll("(?m)^\\s*\"?rows\"?\\s*[=:]\\s*\"?held-apart.*\\R", "");
        assertTrue(!without.contains("held-apart"), without);
        for (String method : List.of("dls-ec", "bbt", "bbt-fed")) {
            assertEquals("training", runFolder(without.replace("method=bbt-fed", "method=" + method))
                    .text("dls-ec.post-tuning.rows"), method);
        }
        assertEquals("held-apart", runFolder(without.replace("method=bbt-fed", "method=fedbpt"))
                .text("dls-ec.post-tuning.rows"), "other methods read the default, which changes nothing of theirs");
    }

    @Test
    void defaultsLoadAndAreValid() {
        ExperimentConfig config = ConfigLoader.loadDefaults();
        assertEquals("fedbpt", config.experiment().method());
        assertEquals(500, config.settings().integer("search.dimension"));
        assertEquals("paper-eq6", config.settings().text("search.step-rule"));
        assertEquals("average", config.settings().text("search.fedavg-paths"));
        assertEquals("reset", ConfigLoader.load(null, List.of("search.fedavg-paths=reset")).settings()
                .text("search.fedavg-paths"));
        assertEquals(Duration.ofMinutes(10), config.federation().roundDeadline());
    }

    @Test
    void fileThenOverridesTakePrecedence() throws IOException {
        Path file = dir.resolve("exp.conf");
        Files.writeString(file, "fedbpt { experiment.rounds = 7, search.sigma0 = 0.5, experiment.method = fedavg-bbt }");
        ExperimentConfig config = ConfigLoader.load(file, List.of("experiment.rounds=9", "fedbpt.data.dir=/tmp/x:y"));
        assertEquals(9, config.experiment().rounds());
        assertEquals(0.5, config.settings().number("search.sigma0"));
        assertEquals("fedavg-bbt", config.experiment().method());
        assertEquals("/tmp/x:y", config.data().dir());
    }

    @Test
    void theTaskIsReadWhenTheConfigurationLoads() {
        ExperimentConfig mrpc = ConfigLoader.load(null, List.of("data.task=mrpc", "data.format=columns"));
        assertEquals("mrpc", mrpc.task().name());
        ConfigError noColumns = assertThrows(ConfigError.class,
                () -> ConfigLoader.load(null, List.of("data.task=sst2", "data.format=columns")));
        assertEquals("fedbpt.data.format", noColumns.key());
        ConfigError unknown = assertThrows(ConfigError.class, () -> ConfigLoader.load(null, List.of("data.task=imdb")));
        assertEquals("fedbpt.data.task", unknown.key());
    }

    @Test
    void laterOverrideWinsOverEarlier() {
        ExperimentConfig config = ConfigLoader.load(null, List.of("experiment.rounds=4", "experiment.rounds=12"));
        assertEquals(12, config.experiment().rounds());
    }

    @Test
    void unknownKeySuggestsNearest() {
        ConfigError error = assertThrows(ConfigError.class,
                () -> ConfigLoader.load(null, List.of("search.sigma=0.5")));
        assertEquals("fedbpt.search.sigma", error.key());
        assertTrue(error.getMessage().contains("did you mean fedbpt.search.sigma0"), error.getMessage());
    }

    @Test
    void outOfRangeValueNamesKeyAndRange() {
        ConfigError error = assertThrows(ConfigError.class,
                () -> ConfigLoader.load(null, List.of("search.perturbation-rate=1.5")));
        assertEquals("fedbpt.search.perturbation-rate", error.key());
        assertTrue(error.getMessage().contains("[0.0, 0.99]"), error.getMessage());
    }

    @Test
    void wrongTypeAndBadEnumNameTheKey() {
        ConfigError type = assertThrows(ConfigError.class,
                () -> ConfigLoader.load(null, List.of("experiment.rounds=many")));
        assertEquals("fedbpt.experiment.rounds", type.key());
        ConfigError enumError = assertThrows(ConfigError.class,
                () -> ConfigLoader.load(null, List.of("experiment.method=fedsgd")));
        assertTrue(enumError.getMessage().contains("fedbpt, fedavg-bbt"), enumError.getMessage());
    }

    @Test
    void malformedFileNamesTheFile() throws IOException {
        Path file = dir.resolve("broken.conf");
        Files.writeString(file, "fedbpt { experiment { rounds = ");
        ConfigError error = assertThrows(ConfigError.class, () -> ConfigLoader.load(file, List.of()));
        assertTrue(error.getMessage().contains("broken.conf"), error.getMessage());
        ConfigError missing = assertThrows(ConfigError.class, () -> ConfigLoader.load(dir.resolve("nope.conf"), List.of()));
        assertTrue(missing.getMessage().contains("nope.conf"), missing.getMessage());
    }

    @Test
    void everyProblemIsReportedAtOnceWithWhereItWasWritten() throws IOException {
        Path file = dir.resolve("a.conf");
        Files.writeString(file, "fedbpt {\n  federation.clients = \"four\"\n  search.sigma = 0.5\n"
                + "  experiment.eval-every = 0\n}\n");
        ConfigError error = assertThrows(ConfigError.class,
                () -> ConfigLoader.load(file, List.of("experiment.rounds=many")));
        String message = error.getMessage();
        assertTrue(message.startsWith("4 problems in the configuration:"), message);
        assertTrue(message.contains(file + ":2: fedbpt.federation.clients: expected a whole number, got \"four\""),
                message);
        assertTrue(message.contains(file + ":3: fedbpt.search.sigma: unknown key; did you mean fedbpt.search.sigma0?"),
                message);
        assertTrue(message.contains(file + ":4: fedbpt.experiment.eval-every: expected an integer in [1, 1000000], got 0"),
                message);
        assertTrue(message.contains("--set experiment.rounds=many: fedbpt.experiment.rounds: expected a whole number"),
                message);
        assertEquals(5, message.lines().count(), message);
        List<String> lines = message.lines().skip(1).toList();
        assertTrue(lines.get(0).contains(":2:") && lines.get(1).contains(":3:") && lines.get(2).contains(":4:")
                && lines.get(3).contains("--set"), "in the order a user reads them: " + message);
        assertTrue(!message.contains("String: 1") && !message.contains("(from"), message);
    }

    @Test
    void aSingleProblemIsOneLineNamingFileLineAndKey() throws IOException {
        Path file = dir.resolve("b.conf");
        Files.writeString(file, "fedbpt {\n  federation {\n    clients = 2.5\n  }\n}\n");
        ConfigError error = assertThrows(ConfigError.class, () -> ConfigLoader.load(file, List.of()));
        assertEquals("fedbpt.federation.clients", error.key());
        assertEquals(file + ":3: fedbpt.federation.clients: expected a whole number, got 2.5", error.getMessage());
    }

    @Test
    void aMissingClosingBraceNamesTheBraceAndItsLine() throws IOException {
        Path file = dir.resolve("c.conf");
        Files.writeString(file, "fedbpt {\n  experiment {\n    name = \"x { y\"  # a { in a comment\n"
                + "    rounds = 3\n}\n");
        ConfigError error = assertThrows(ConfigError.class, () -> ConfigLoader.load(file, List.of()));
        assertEquals(file + ": a '{' opened at line 1 is never closed (the file ends first)", error.getMessage());
        Files.writeString(file, "fedbpt {\n  experiment {\n    rounds = 3\n");
        ConfigError two = assertThrows(ConfigError.class, () -> ConfigLoader.load(file, List.of()));
        assertTrue(two.getMessage().contains("2 '{' are never closed (the file ends first); the innermost opened at "
                + "line 2, the outermost at line 1"), two.getMessage());
        assertTrue(!two.getMessage().contains("parentheses"), two.getMessage());
    }

    @Test
    void aTaskWithColumnsIsReadByThemWithoutSettingTheFormat() {
        ExperimentConfig mrpc = ConfigLoader.load(null, List.of("data.task=mrpc"));
        assertEquals("columns", mrpc.data().format());
        assertTrue(mrpc.resolvedHocon().contains("format=columns") || mrpc.resolvedHocon().contains("format = columns")
                || mrpc.resolvedHocon().contains("format=\"columns\""), mrpc.resolvedHocon());
        assertEquals("tsv", ConfigLoader.load(null, List.of("data.task=sst2")).data().format());
        assertEquals("sst2", ConfigLoader.load(null, List.of("data.task=sst2", "data.format=sst2")).data().format());
        assertEquals("tsv", ConfigLoader.load(null, List.of("data.task=mrpc", "data.format=tsv")).data().format());
    }

    @Test
    void resolvedConfigRoundTripsToSameHash() throws IOException {
        ExperimentConfig config = ConfigLoader.load(null, List.of("experiment.seed=7", "model.prompt-length=5"));
        Path stored = dir.resolve("config.conf");
        Files.writeString(stored, config.resolvedHocon());
        ExperimentConfig reloaded = ConfigLoader.load(stored, List.of());
        assertEquals(config, reloaded);
        assertEquals(config.canonicalHash(), reloaded.canonicalHash());
        assertNotEquals(config.canonicalHash(), ConfigLoader.loadDefaults().canonicalHash());
    }

    @Test
    void modelFileAndTokenizerMustComeTogether() {
        ConfigError error = assertThrows(ConfigError.class,
                () -> ConfigLoader.load(null, List.of("model.onnx=/tmp/model.onnx")));
        assertEquals("fedbpt.model.tokenizer", error.key());
    }

    @Test
    void executionSettingsAreOutsideTheExperimentAndTheirChangesAreNamed() {
        ExperimentConfig stored = ConfigLoader.load(null, List.of());
        ExperimentConfig resumed = ConfigLoader.load(null, List.of("pool.workers=2", "persistence.snapshot-every=10"));
        assertEquals(stored.experimentHocon(), resumed.experimentHocon());
        assertEquals(stored.runIdentity(), resumed.runIdentity());
        assertEquals(List.of("persistence.snapshot-every 2 -> 10", "pool.workers 1 -> 2"),
                resumed.executionChangesFrom(stored));
        assertEquals(List.of(), stored.executionChangesFrom(stored));
        assertNotEquals(stored.experimentHocon(), ConfigLoader.load(null, List.of("search.sigma0=0.5")).experimentHocon());
    }
}
