package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.DatasetFormatException;
import dev.fedbpt.inference.ModelTokenizer;
import dev.fedbpt.inference.ScoringModel;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One client per domain as FDU-MTL's files need it: a windows-1252 file among UTF-8 ones, a row without text, long
 * rows cut, and the settings refused with the key named when they do not fit together.
 */
class DomainDataTest {
    @TempDir
    Path dir;

    private ExperimentConfig config(String... extra) {
        return TestRuns.config(TestRuns.concat(new String[] {"experiment.method=dls-ec", "data.task=fdu-mtl",
                "data.format=tsv", "data.dir=" + dir, "data.train={domain}.train", "data.test={domain}.test",
                "data.split=domains", "data.domains=[a, b]", "data.shots-per-class=0",
                "dls-ec.post-tuning.rows=training"}, extra));
    }

    private void write(String domain, String trainText, Charset charset) throws IOException {
        Files.write(dir.resolve(domain + ".train"), trainText.getBytes(charset));
        Files.writeString(dir.resolve(domain + ".test"), "0\tbad thing\n1\tgood thing\n");
    }

    @Test
    void autoEncodingReadsAWindows1252FileAndEmptyTextsAreSkippedWhenAsked() throws IOException {
        write("a", "0\tcaf\u00e9 was bad\n1\tnice\n", Charset.forName("windows-1252"));
        write("b", "0\tna\u00efve and bad\n1\t\n1\tgreat\n", Charset.forName("UTF-8"));
        DatasetFormatException notUtf8 = assertThrows(DatasetFormatException.class,
                () -> prepare(config("data.empty-text=skip")));
        assertTrue(notUtf8.getMessage().contains("a.train") && notUtf8.getMessage().contains("data.encoding = auto"),
                notUtf8.getMessage());
        DatasetFormatException empty = assertThrows(DatasetFormatException.class,
                () -> prepare(config("data.encoding=auto")));
        assertTrue(empty.getMessage().contains("b.train:2") && empty.getMessage().contains("data.empty-text"),
                empty.getMessage());
        ExperimentData data = prepare(config("data.encoding=auto", "data.empty-text=skip"));
        assertEquals(2, data.clients().get(0).size());
        assertEquals(2, data.clients().get(1).size(), "the row without text is left out");
        assertEquals(4, data.testSet().labels().length, "the global test set joins the domains'");
        assertEquals(2, data.clientTest(1).size());
    }

    @Test
    void longRowsAreCutKeepingTheirLastSpecialToken() throws IOException {
        write("a", "0\tone two three four five six seven eight nine ten\n1\tshort\n", Charset.forName("UTF-8"));
        write("b", "0\tbad\n1\tgood\n", Charset.forName("UTF-8"));
        try (ScoringModel model = new ConfiguredModels().load(config())) {
            ModelTokenizer capped = model.cappedAt(5);
            int[] full = model.encode("one two three four five six seven eight nine ten");
            int[] cut = capped.encode("one two three four five six seven eight nine ten");
            assertEquals(5, cut.length);
            assertArrayEquals(new int[] {full[0], full[1], full[2], full[3], full[full.length - 1]}, cut);
            assertEquals(5, prepare(config("data.max-row-tokens=5")).clients().get(0).tokenIds().get(0).length);
        }
    }

    @Test
    void settingsThatDoNotFitTogetherAreRefusedNamingTheKey() {
        assertEquals("fedbpt.data.train", assertThrows(ConfigError.class,
                () -> config("data.train=all.train")).key());
        assertEquals("fedbpt.data.held-out", assertThrows(ConfigError.class,
                () -> config("data.held-out=[c]")).key());
        assertEquals("fedbpt.data.held-out", assertThrows(ConfigError.class,
                () -> config("data.held-out=[a, b]")).key());
        assertEquals("fedbpt.federation.held-out-clients", assertThrows(ConfigError.class,
                () -> config("federation.held-out-clients=1")).key());
        assertEquals("fedbpt.data.held-out", assertThrows(ConfigError.class,
                () -> TestRuns.config("data.held-out=[a]")).key());
    }

    private static ExperimentData prepare(ExperimentConfig config) {
        try (ScoringModel model = new ConfiguredModels().load(config)) {
            return ExperimentData.prepare(config, model);
        }
    }
}
