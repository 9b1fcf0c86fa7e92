package dev.fedbpt.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.data.ColumnReader;
import dev.fedbpt.engine.data.Dataset;
import dev.fedbpt.engine.data.Example;
import dev.fedbpt.engine.data.TaskDefinition;
import dev.fedbpt.engine.data.TaskMetric;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskFilesTest {
    @TempDir
    Path dir;

    @Test
    void everyShippedTaskLoads() {
        for (String name : TaskFiles.SHIPPED) {
            TaskDefinition task = TaskFiles.load(name);
            assertEquals(name, task.name());
        }
        assertEquals("sst2", TaskFiles.load("SST-2").name());
        assertEquals("ag-news", TaskFiles.load("ag_news").name());
        assertEquals("ag-news", TaskFiles.load("agnews").name());
    }

    @Test
    void theFedBptTasksKeepTheirTemplatesAndWords() {
        TaskDefinition sst2 = TaskFiles.load("sst2");
        assertEquals("one long string of cliches . . It was [MASK] .",
                sst2.apply(new Example("one long string of cliches .", 1)));
        assertEquals(List.of("bad", "great"), sst2.labelWords());
        assertEquals(List.of("It was terrible.", "It was great."), sst2.labelDescriptions());
        TaskDefinition agNews = TaskFiles.load("ag-news");
        assertEquals("<mask> News: Oil prices rise", agNews.apply(new Example("Oil prices rise", 2), "<mask>"));
        assertEquals(List.of("World", "Sports", "Business", "Tech"), agNews.labelWords());
        assertEquals(List.of("World", "Sports", "Business", "Sci/Tech"), agNews.labelNames());
        assertEquals(List.of("bad", "good"), TaskFiles.load("yelp-polarity").labelWords());
        assertEquals(sst2.template(), TaskFiles.load("sample-sentiment").template());
    }

    @Test
    void glueTasksSayTheirMetrics() {
        assertEquals(List.of(TaskMetric.MCC, TaskMetric.ACCURACY), TaskFiles.load("cola").metrics());
        TaskDefinition mrpc = TaskFiles.load("mrpc");
        assertEquals(List.of(TaskMetric.F1, TaskMetric.ACCURACY), mrpc.metrics());
        assertEquals(1, mrpc.positiveLabel());
        assertTrue(mrpc.pairs());
        assertEquals("He came[SEP]He arrived? <mask>,", mrpc.apply(new Example(List.of("He came", "He arrived"), 1),
                "<mask>"));
        assertEquals(3, TaskFiles.load("mnli").numClasses());
        assertNull(TaskFiles.load("sst2").columns(), "sst2 has a reader of its own");
    }

    @Test
    void readsGlueReleasesWhenTheSharedDatasetsArePresent() throws IOException {
        Path glue = Path.of("../../shared/datasets/glue");
        Assumptions.assumeTrue(Files.isDirectory(glue), "shared GLUE data not found at " + glue.toAbsolutePath()
                .normalize() + "; skipping the release-format check");
        Object[][] expected = {
                {"cola", "train.tsv", 8551}, {"cola", "dev.tsv", 1043},
                {"mrpc", "train.tsv", 3668}, {"mrpc", "dev.tsv", 408},
                {"rte", "train.tsv", 2490}, {"rte", "dev.tsv", 277},
                {"qnli", "train.tsv", 8999}, {"qnli", "dev.tsv", 5463},
                {"mnli", "train.tsv", 8999}, {"mnli", "test-from-train.tsv", 1000},
                {"qqp", "train.tsv", 8999}, {"qqp", "test-from-train.tsv", 1000}};
        for (Object[] row : expected) {
            TaskDefinition task = TaskFiles.load((String) row[0]);
            Path file = glue.resolve((String) row[0]).resolve((String) row[1]);
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                Dataset d = ColumnReader.read(in, file.toString(), task);
                assertEquals(row[2], d.size(), file.toString());
                for (int count : d.labelCounts()) {
                    assertTrue(count > 0, file + ": every class present");
                }
                assertEquals(task.inputs().size(), d.examples().get(0).inputs().size());
            }
        }
        TaskDefinition mrpc = TaskFiles.load("mrpc");
        try (Reader in = Files.newBufferedReader(glue.resolve("mrpc/train.tsv"), StandardCharsets.UTF_8)) {
            Example first = ColumnReader.read(in, "mrpc/train.tsv", mrpc).examples().get(0);
            assertEquals(1, first.label());
            assertTrue(first.inputs().get(0).startsWith("Amrozi accused his brother , whom he called \" the witness"));
            assertTrue(first.inputs().get(1).startsWith("Referring to him as only \" the witness \""));
        }
    }

    @Test
    void aUsersOwnTaskFileWithJsonLines() throws IOException {
        Path file = dir.resolve("reviews.conf");
        Files.writeString(file, """
                task {
                  name = "reviews"
                  inputs = ["body"]
                  labels = [
                    { value = "1", name = "bad", word = "bad", description = "A bad review." }
                    { value = "5", name = "good", word = "good", description = "A good review." }
                  ]
                  template = "{body} It was [MASK]."
                  metrics = ["accuracy", "f1"]
                  positive-label = "5"
                  columns { file = "jsonl", header = true, label = "stars", inputs = ["body"] }
                }
                """);
        TaskDefinition task = TaskFiles.load(file.toString());
        assertEquals(1, task.positiveLabel());
        Dataset d = ColumnReader.read(new java.io.StringReader("{\"stars\": 5, \"body\": \"Loved it\"}\n"),
                "r.jsonl", task);
        assertEquals(List.of(new Example("Loved it", 1)), d.examples());
    }

    @Test
    void badTaskFilesNameTheFileAndKey() throws IOException {
        ConfigError unknown = assertThrows(ConfigError.class, () -> TaskFiles.load("imdb"));
        assertTrue(unknown.getMessage().contains("fedbpt.data.task") && unknown.getMessage().contains("'imdb'")
                && unknown.getMessage().contains("mrpc"), unknown.getMessage());
        ConfigError missing = assertThrows(ConfigError.class, () -> TaskFiles.load(dir.resolve("no.conf").toString()));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());

        Path file = dir.resolve("bad.conf");
        Files.writeString(file, """
                task {
                  name = "bad"
                  inputs = ["text"]
                  labels = [
                    { value = "0", name = "a", word = "a", description = "A." }
                    { value = "1", name = "b", wrd = "b", description = "B." }
                  ]
                  template = "{text} [MASK]"
                  metrics = ["accuracy"]
                }
                """);
        ConfigError key = assertThrows(ConfigError.class, () -> TaskFiles.load(file.toString()));
        assertTrue(key.getMessage().contains(file.toString()) && key.getMessage().contains("task.labels[1].wrd"),
                key.getMessage());

        Files.writeString(file, """
                task { name = "bad", inputs = ["text"], template = "{text} [MASK]", metrics = ["auc"]
                  labels = [ { value = "0", name = "a", word = "a", description = "A." },
                             { value = "1", name = "b", word = "b", description = "B." } ] }
                """);
        ConfigError metric = assertThrows(ConfigError.class, () -> TaskFiles.load(file.toString()));
        assertTrue(metric.getMessage().contains("task.metrics") && metric.getMessage().contains("'auc'"),
                metric.getMessage());

        Files.writeString(file, """
                task { name = "bad", inputs = ["text"], template = "{text}", metrics = ["accuracy"]
                  labels = [ { value = "0", name = "a", word = "a", description = "A." },
                             { value = "1", name = "b", word = "b", description = "B." } ] }
                """);
        ConfigError template = assertThrows(ConfigError.class, () -> TaskFiles.load(file.toString()));
        assertTrue(template.getMessage().contains("[MASK]") && template.getMessage().contains(file.toString()),
                template.getMessage());
    }
}
