package dev.fedbpt.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reads the real benchmark files kept beside the project (never copied into it). Skipped when they are absent.
 * Location: system property {@code fedbpt.datasets}, else {@code ../shared/datasets} or {@code ../../shared/datasets}
 * relative to the working directory (the module directory under Maven).
 */
class RealDatasetsTest {
    private static Path root;

    @BeforeAll
    static void locate() {
        List<Path> candidates = new ArrayList<>();
        String property = System.getProperty("fedbpt.datasets");
        if (property != null && !property.isBlank()) {
            candidates.add(Path.of(property));
        }
        candidates.add(Path.of("../shared/datasets"));
        candidates.add(Path.of("../../shared/datasets"));
        root = candidates.stream().filter(p -> Files.isDirectory(p.resolve("sst2"))).findFirst().orElse(null);
        Assumptions.assumeTrue(root != null, "shared datasets not found at " + candidates.stream()
                .map(p -> p.toAbsolutePath().normalize().toString()).toList()
                + " (set -Dfedbpt.datasets=DIR to point at them)");
    }

    private static Path file(String relative) {
        Path p = root.resolve(relative);
        Assumptions.assumeTrue(Files.isRegularFile(p), "shared dataset file not found: " + p.toAbsolutePath());
        return p;
    }

    private static void sane(Dataset d, int rows) {
        assertEquals(rows, d.size(), d.name());
        for (int count : d.labelCounts()) {
            // every class present with a reasonable share: none below a fifth of a uniform share
            assertTrue(count > rows / d.numClasses() / 5, d.name() + " label counts");
        }
        for (Example e : d.examples()) {
            assertFalse(e.text().isBlank(), d.name());
        }
    }

    @Test
    void sst2() {
        Dataset train = DatasetReaders.sst2(file("sst2/train.tsv"));
        sane(train, 67_349);
        Dataset dev = DatasetReaders.sst2(file("sst2/dev.tsv"));
        sane(dev, 872);
        Dataset test = DatasetReaders.sst2(file("sst2/test.tsv"));
        sane(test, 1_821);
        assertEquals("one long string of cliches .", dev.examples().get(0).text());
        for (Example e : train.examples()) {
            assertFalse(e.text().contains("\r"), "CRLF must be stripped");
        }
    }

    @Test
    void agNewsTest() {
        Dataset test = DatasetReaders.agNews(file("agnews/test.csv"));
        sane(test, 7_600);
        assertArrayEquals(new int[] {1900, 1900, 1900, 1900}, test.labelCounts());
        assertEquals(new Example("Fears for T N pension after talks Unions representing workers at Turner Newall say "
                + "they are 'disappointed' after talks with stricken parent firm Federal Mogul.", 2),
                test.examples().get(0));
        for (Example e : test.examples()) {
            assertFalse(e.text().contains("\\"), e.text());
        }
    }

    @Test
    void agNewsTrainSubset() {
        Dataset train = DatasetReaders.agNews(file("agnews/train-subset.csv"));
        sane(train, 5_000);
        assertEquals(3, train.examples().get(0).label());
    }
}
