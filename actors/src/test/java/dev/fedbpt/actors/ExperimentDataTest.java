package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.config.TaskFiles;
import dev.fedbpt.engine.data.Example;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.TaskDefinition;
import dev.fedbpt.engine.method.HeldApart;
import dev.fedbpt.inference.ModelTokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentDataTest {
    /** Each word is a token: "a" is 10, "b" 11, ...; rows are [CLS]=1 ... [SEP]=2, cut to 8 tokens keeping [SEP]. */
    private static final ModelTokenizer WORDS = new ModelTokenizer() {
        @Override
        public int[] encode(String text) {
            String[] words = text.isBlank() ? new String[0] : text.strip().split(" ");
            int n = Math.min(words.length, maxRowTokens() - 2);
            int[] row = new int[n + 2];
            row[0] = 1;
            for (int i = 0; i < n; i++) {
                row[i + 1] = 10 + words[i].charAt(0) - 'a';
            }
            row[n + 1] = 2;
            return row;
        }

        @Override
        public int maxRowTokens() {
            return 8;
        }

        @Override
        public int vocabularySize() {
            return 100;
        }

        @Override
        public int[] specialTokenIds() {
            return new int[] {0, 1, 2};
        }

        @Override
        public void close() {}
    };

    private static final TaskDefinition RTE = TaskFiles.load("rte");

    @Test
    void aPairIsOneRowInBertsPairLayout() {
        int[] row = ExperimentData.encode(new Example(List.of("a b", "c"), 0), RTE, false, WORDS);
        assertArrayEquals(new int[] {1, 10, 11, 2, 12, 2}, row);
    }

    @Test
    void aLongPairIsCutLongestFirstKeepingEachSep() {
        // 5 + 3 words: the first part loses its last words until [CLS] a b c [SEP] d e [SEP] (8 tokens) fits
        int[] row = ExperimentData.encode(new Example(List.of("a b c d e", "f g h"), 0), RTE, false, WORDS);
        assertArrayEquals(new int[] {1, 10, 11, 12, 2, 15, 16, 2}, row);
    }

    @Test
    void aMaskedLmHeadReadsThePairInsideTheTemplate() {
        int[] row = ExperimentData.encode(new Example(List.of("a", "b"), 0), RTE, true, WORDS);
        assertArrayEquals(WORDS.encode("a[SEP]b entailment? [MASK]."), row);
    }

    @TempDir
    Path dir;

    /** A test file sorted by label, capped: a stratified sample by default, the file's head where asked. */
    @Test
    void aCappedTestSetIsAStratifiedSampleUnlessTheFirstRowsAreAsked() throws Exception {
        StringBuilder test = new StringBuilder("label\ttext\n");
        for (int i = 0; i < 40; i++) test.append(i < 20 ? 0 : 1).append('\t').append("b c ").append(i).append('\n');
        Path file = Files.writeString(dir.resolve("test.tsv"), test.toString());
        List<String> overrides = List.of("data.test=" + file, "data.test-limit=10", "model.backend=synthetic");
        ExperimentConfig config = ConfigLoader.load(null, overrides);
        try (ModelTokenizer tokenizer = new ConfiguredModels().tokenizer(config)) {
            int[] labels = ExperimentData.prepare(config, tokenizer).testSet().labels();
            assertEquals(10, labels.length);
            assertEquals(5, Arrays.stream(labels).filter(l -> l == 1).count(), "half of each class");
            List<String> first = new java.util.ArrayList<>(overrides);
            first.add("data.test-sample=first");
            int[] head = ExperimentData.prepare(ConfigLoader.load(null, first), tokenizer).testSet().labels();
            assertArrayEquals(new int[10], head, "the first ten rows are all class 0");
        }
    }

    /** int8 calibrates on training rows only, the same for a seed wherever drawn, others for another seed. */
    @Test
    void calibrationRowsAreTrainingRowsDrawnBySeed() {
        List<int[]> train = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) train.add(new int[] {1, 10 + i, 2});
        int[] labels = new int[100];
        ExperimentData data = new ExperimentData(RTE, List.of(new LocalData(train.subList(0, 100), labels, 2),
                new LocalData(train.subList(100, 200), labels, 2)),
                Evaluator.TestSet.accuracyOnly(List.of(new int[] {1, 999, 2}), new int[] {0}, 2));
        List<int[]> a = data.calibrationRows(1);
        assertEquals(ExperimentData.CALIBRATION_ROWS, a.size());
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int[] row : a) {
            assertTrue(row[1] >= 10 && row[1] < 210, "a training row: " + Arrays.toString(row));
            assertTrue(seen.add(row[1]), "each row once");
        }
        assertTrue(seen.stream().anyMatch(t -> t >= 110), "drawn from every client");
        List<int[]> again = data.calibrationRows(1);
        for (int r = 0; r < a.size(); r++) assertArrayEquals(a.get(r), again.get(r));
        assertNotEquals(a.stream().map(r -> r[1]).toList(), data.calibrationRows(2).stream().map(r -> r[1]).toList());
    }

    /**
     * FedPepTAO's split: a personalised method's clients get test rows dealt with their training shares (so every row
     * once), the same for the seed; a split it cannot complete is an error of data.split.
     */
    @Test
    void dirichletLabelDealsTestRowsByTheTrainingSharesAndRefusesWhatItCannotSplit() {
        List<String> overrides = List.of("data.split=dirichlet-label", "experiment.method=dls-ec",
                "model.backend=synthetic", "federation.clients=4", "dls-ec.post-tuning.shots-per-class=4");
        ExperimentConfig config = ConfigLoader.load(null, overrides);
        assertEquals(ExperimentConfig.Split.DIRICHLET_LABEL, config.data().split());
        try (ModelTokenizer tokenizer = new ConfiguredModels().tokenizer(config)) {
            ExperimentData data = ExperimentData.prepare(config, tokenizer);
            int testRows = data.testSet().labels().length;
            int dealt = 0;
            for (int k = 0; k < 4; k++) {
                assertTrue(data.clientTest(k).labels().length > 0, "client " + k + " has test rows");
                dealt += data.clientTest(k).labels().length;
            }
            assertEquals(testRows, dealt, "every test row goes to one client");
            ExperimentData again = ExperimentData.prepare(config, tokenizer);
            for (int k = 0; k < 4; k++) {
                assertArrayEquals(data.clients().get(k).labels(), again.clients().get(k).labels());
                assertArrayEquals(data.clientTest(k).labels(), again.clientTest(k).labels());
            }
            // 32 few-shot examples over 32 clients: each would need a share that rounds to exactly one.
            ExperimentConfig crowded = ConfigLoader.load(null, List.of("data.split=dirichlet-label",
                    "model.backend=synthetic", "federation.clients=32"));
            ConfigError error = assertThrows(ConfigError.class, () -> ExperimentData.prepare(crowded, tokenizer));
            assertEquals("fedbpt.data.split", error.key());
            assertTrue(error.getMessage().contains("federation.clients"), error.getMessage());
        }
    }
    /**
     * Held-apart post-tuning: each client of a single train file gets its post-tuning and dev rows, stratified, from
     * the rows outside the few-shot set, none shared with another client or with the federated rows; the same for
     * the seed, others for another; a pool too small names the key; under training none are drawn.
     */
    @Test
    void heldApartRowsAreStratifiedDisjointFromTheFederatedRowsAndDrawnBySeedAndClient() {
        List<String> overrides = List.of("experiment.method=dls-ec", "model.backend=synthetic",
                "federation.clients=4", "data.split=dirichlet", "data.shots-per-class=8",
                "dls-ec.post-tuning.shots-per-class=5");
        ExperimentConfig config = ConfigLoader.load(null, overrides);
        try (ModelTokenizer tokenizer = new ConfiguredModels().tokenizer(config)) {
            ExperimentData data = ExperimentData.prepare(config, tokenizer);
            Set<String> federated = new HashSet<>();
            for (LocalData client : data.clients()) client.tokenIds().forEach(r -> federated.add(Arrays.toString(r)));
            Set<String> heldApart = new HashSet<>();
            for (int k = 0; k < 4; k++) {
                HeldApart rows = data.heldApart(k);
                for (LocalData part : List.of(rows.train(), rows.dev())) {
                    assertArrayEquals(new long[] {5, 5}, classCounts(part), "client " + k + ": 5 of each class");
                    for (int[] row : part.tokenIds()) {
                        String key = Arrays.toString(row);
                        assertTrue(!federated.contains(key), "client " + k + " post-tunes on a federated row");
                        assertTrue(heldApart.add(key), "client " + k + ": a row drawn twice");
                    }
                }
            }
            assertEquals(4 * 20, heldApart.size());
            ExperimentData again = ExperimentData.prepare(config, tokenizer);
            ExperimentData otherSeed = ExperimentData.prepare(ConfigLoader.load(null,
                    concat(overrides, "experiment.seed=99")), tokenizer);
            for (int k = 0; k < 4; k++) {
                assertEquals(rows(data.heldApart(k).train()), rows(again.heldApart(k).train()));
                assertEquals(rows(data.heldApart(k).dev()), rows(again.heldApart(k).dev()));
            }
            assertNotEquals(rows(data.heldApart(0).train()), rows(otherSeed.heldApart(0).train()));
            ConfigError tooFew = assertThrows(ConfigError.class, () -> ExperimentData.prepare(ConfigLoader.load(null,
                    concat(overrides, "dls-ec.post-tuning.shots-per-class=16")), tokenizer));
            assertEquals("fedbpt.dls-ec.post-tuning.shots-per-class", tooFew.key());
            assertTrue(tooFew.getMessage().contains("only 112"), tooFew.getMessage());
            assertNull(ExperimentData.prepare(ConfigLoader.load(null, concat(overrides,
                    "dls-ec.post-tuning.rows=training")), tokenizer).clientHeldApart());
            assertNull(ExperimentData.prepare(ConfigLoader.load(null, concat(overrides,
                    "experiment.method=fedbpt")), tokenizer).clientHeldApart(), "a method that is not personalised");
        }
    }

    /** One client per domain: its held-apart rows from its own train file, outside its few-shot rows. */
    @Test
    void aDomainsHeldApartRowsComeFromItsOwnTrainFileOutsideItsFewShotRows() {
        DomainFiles.write(dir);
        ExperimentConfig config = ConfigLoader.load(null, concat(List.of(DomainFiles.dlsEc(dir, 2)),
                "model.backend=synthetic"));
        try (ModelTokenizer tokenizer = new ConfiguredModels().tokenizer(config)) {
            ExperimentData data = ExperimentData.prepare(config, tokenizer);
            for (int d = 0; d < DomainFiles.DOMAINS.length; d++) {
                HeldApart rows = data.heldApart(d);
                Set<String> fewShot = new HashSet<>(rows(data.clients().get(d)));
                assertArrayEquals(new long[] {2, 2}, classCounts(rows.train()));
                assertArrayEquals(new long[] {2, 2}, classCounts(rows.dev()));
                Set<String> drawn = new HashSet<>(rows(rows.train()));
                drawn.addAll(rows(rows.dev()));
                drawn.retainAll(fewShot);
                assertEquals(Set.of(), drawn, DomainFiles.DOMAINS[d]);
                String domainWord = Arrays.toString(tokenizer.encode("this " + DomainFiles.DOMAINS[d]));
                assertTrue(rows(rows.train()).stream().allMatch(r -> r.startsWith(domainWord.substring(0,
                        domainWord.lastIndexOf(',')))), "rows of the domain's own file");
            }
        }
    }

    private static long[] classCounts(LocalData data) {
        long[] counts = new long[data.numClasses()];
        for (int label : data.labels()) counts[label]++;
        return counts;
    }

    private static List<String> rows(LocalData data) {
        return data.tokenIds().stream().map(Arrays::toString).toList();
    }

    private static List<String> concat(List<String> base, String... more) {
        List<String> all = new ArrayList<>(base);
        all.addAll(List.of(more));
        return all;
    }
}
