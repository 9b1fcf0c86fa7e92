package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fedbpt.config.ExperimentConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pair task read from GLUE's MRPC layout (header after a byte-order mark, quotes as plain text) runs end to end,
 * and its F1 is journalled with every evaluation and written beside accuracy.
 */
class GlueTaskRunTest {
    @TempDir
    Path dir;

    @Test
    void anMrpcShapedRunReportsF1BesideAccuracy() throws IOException {
        StringBuilder tsv = new StringBuilder("\uFEFFQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\n");
        for (int i = 0; i < 40; i++) {
            tsv.append(i % 2).append('\t').append(i).append('\t').append(i + 1000).append('\t')
                    .append("the \" first \" sentence number ").append(i).append('\t')
                    .append("a second sentence ").append(i % 7).append('\n');
        }
        Files.writeString(dir.resolve("train.tsv"), tsv);
        Files.writeString(dir.resolve("dev.tsv"), tsv);
        ExperimentConfig config = TestRuns.config("data.task=mrpc", "data.format=columns",
                "data.dir=" + dir, "data.train=train.tsv", "data.test=dev.tsv", "data.shots-per-class=4",
                "experiment.method=fed-bbpt", "experiment.rounds=3", "experiment.eval-every=1",
                "fed-bbpt.prompt-length=3", "fed-bbpt.candidates=20", "fed-bbpt.samples=3", "fed-bbpt.min-count=1");
        Path run = dir.resolve("run");
        ExperimentRunner.Outcome outcome = TestRuns.run(config, run);
        assertNull(outcome.failure());

        JsonNode result = TestRuns.result(run);
        assertTrue(result.get("final_f1").isNumber() && result.get("zero_shot_f1").isNumber(), result.toString());
        double f1 = result.get("final_f1").asDouble();
        assertTrue(f1 >= 0 && f1 <= 1, result.toString());
        List<JsonNode> rows = TestRuns.metrics(run);
        assertEquals(3, rows.size());
        for (JsonNode row : rows) {
            assertTrue(row.get("test_f1").isNumber(), row.toString());
        }
        assertEquals(f1, rows.get(2).get("test_f1").asDouble());

        // Recovered from the journal alone, the outputs carry the same F1s.
        String metrics = Files.readString(run.resolve("metrics.jsonl"));
        Files.delete(run.resolve("metrics.jsonl"));
        Files.delete(run.resolve("result.json"));
        assertNull(TestRuns.run(config, run).failure());
        assertEquals(metrics, Files.readString(run.resolve("metrics.jsonl")));
        assertEquals(result.get("final_f1"), TestRuns.result(run).get("final_f1"));
        assertEquals(result.get("zero_shot_f1"), TestRuns.result(run).get("zero_shot_f1"));
    }
}
