package dev.fedbpt.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.fedbpt.config.RunFields;
import dev.fedbpt.engine.data.TaskMetric;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads the JSON files of a run folder; unknown fields are ignored, malformed input names the file and line. */
final class RunFiles {
    // NaN and Infinity may appear as bare tokens or as strings, depending on the writer's settings.
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private RunFiles() {}

    /**
     * The line's fields that are not the framework's: the method's metrics, in the line's order. Metrics are numbers
     * (NaN and infinities may be words); a structured field (array, object) is something newer and is left alone.
     */
    private static Map<String, Double> methodMetrics(Path file, int line, JsonNode node) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        node.fieldNames().forEachRemaining(key -> {
            if (!RunFields.isFrameworkMetricsKey(key) && node.get(key).isValueNode()) {
                Double value = number(file, line, node, key);
                if (value != null) {
                    metrics.put(key, value);
                }
            }
        });
        return metrics;
    }

    /** The rows of {@code metrics.jsonl} in round order (the last line wins when a round repeats); blank lines are skipped. */
    static List<MetricsRow> readMetrics(Path file) {
        List<String> lines = readLines(file);
        Map<Integer, MetricsRow> byRound = new TreeMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            JsonNode node = parseObject(file, i + 1, line);
            MetricsRow row = new MetricsRow(
                    roundOf(file, i + 1, node),
                    number(file, i + 1, node, RunFields.MEAN_CLIENT_LOSS),
                    methodMetrics(file, i + 1, node),
                    number(file, i + 1, node, RunFields.TEST_ACCURACY),
                    integer(file, i + 1, node, RunFields.BYTES_UP),
                    integer(file, i + 1, node, RunFields.BYTES_DOWN));
            byRound.put(row.round(), row);
        }
        return List.copyOf(byRound.values());
    }

    static RunResult readResult(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ReportInputException(file, 0, "cannot read: " + e.getMessage(), e);
        }
        JsonNode node = parseObject(file, 0, text);
        Long rounds = integer(file, 0, node, RunFields.ROUNDS_COMPLETED);
        Long seed = integer(file, 0, node, RunFields.SEED);
        return new RunResult(text(file, node, RunFields.METHOD), seed, rounds == null ? null : rounds.intValue(),
                number(file, 0, node, RunFields.ZERO_SHOT_ACCURACY), number(file, 0, node, RunFields.FINAL_ACCURACY),
                text(file, node, RunFields.SAME_RUN_AS), text(file, node, RunFields.PROFILE),
                finalTaskMetrics(file, node));
    }

    /**
     * The task's other final metrics ({@code final_f1}, {@code final_mcc}) the run reports, in metric order, then the
     * accuracies of groups of clients a personalised method reports ({@code final_p_accuracy}: participants,
     * {@code final_np_accuracy}: held out), in result.json's order.
     */
    private static Map<String, Double> finalTaskMetrics(Path file, JsonNode node) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        for (TaskMetric metric : TaskMetric.values()) {
            Double value = metric == TaskMetric.ACCURACY ? null
                    : number(file, 0, node, RunFields.FINAL_PREFIX + metric.key());
            if (value != null) {
                metrics.put(metric.key(), value);
            }
        }
        for (java.util.Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (name.startsWith(RunFields.FINAL_PREFIX) && name.endsWith("_accuracy")
                    && !name.equals(RunFields.FINAL_ACCURACY)) {
                Double value = number(file, 0, node, name);
                if (value != null) {
                    metrics.put(name.substring(RunFields.FINAL_PREFIX.length()), value);
                }
            }
        }
        return metrics;
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ReportInputException(file, 0, "cannot read: " + e.getMessage(), e);
        }
    }

    private static JsonNode parseObject(Path file, int line, String text) {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ReportInputException(file, line, "not valid JSON: " + firstLine(e.getOriginalMessage()), e);
        }
        if (node == null || !node.isObject()) {
            throw new ReportInputException(file, line, "expected a JSON object, found "
                    + (node == null ? "nothing" : node.getNodeType().toString().toLowerCase()));
        }
        return node;
    }

    private static int roundOf(Path file, int line, JsonNode node) {
        JsonNode round = node.get(RunFields.ROUND);
        if (round == null || round.isNull()) {
            throw new ReportInputException(file, line, "no \"round\" field");
        }
        if (!round.canConvertToInt() || !round.isIntegralNumber() || round.intValue() < 0) {
            throw new ReportInputException(file, line, "\"round\" must be a non-negative integer, found " + round);
        }
        return round.intValue();
    }

    /** A numeric field: null when absent or null; NaN and infinities may be written as strings. */
    private static Double number(Path file, int line, JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isNumber()) {
            return value.doubleValue();
        }
        if (value.isTextual()) {
            switch (value.textValue()) {
                case "NaN": return Double.NaN;
                case "Infinity": return Double.POSITIVE_INFINITY;
                case "-Infinity": return Double.NEGATIVE_INFINITY;
                default: break;
            }
        }
        throw new ReportInputException(file, line, "\"" + field + "\" must be a number, found " + value);
    }

    private static Long integer(Path file, int line, JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber()) {
            throw new ReportInputException(file, line, "\"" + field + "\" must be an integer, found " + value);
        }
        return value.longValue();
    }

    private static String text(Path file, JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new ReportInputException(file, 0, "\"" + field + "\" must be a string, found " + value);
        }
        return value.textValue();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
