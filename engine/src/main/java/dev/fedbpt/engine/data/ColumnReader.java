package dev.fedbpt.engine.data;

import java.io.Reader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a task's examples from a file with named (or numbered) columns, as the task's {@link ColumnLayout} says:
 * GLUE's releases (CoLA, MRPC, RTE, QNLI, MNLI, QQP) and a user's own TSV, CSV or JSON Lines. Labels are matched
 * against the task's label values as written in the file ({@code 0}/{@code 1}, {@code entailment}, ...); every
 * malformed record fails with the file and line. Blank lines are skipped and a byte-order mark before the header
 * (MRPC's) is ignored.
 */
public final class ColumnReader {
    private ColumnReader() {
    }

    public static Dataset read(Reader in, String source, TaskDefinition task) {
        ColumnLayout layout = task.columns();
        if (layout == null) {
            throw new IllegalArgumentException("task " + task.name() + " defines no columns");
        }
        LineCursor cursor = new LineCursor(in, source);
        int[] at = null; // column index of the label, then of each input (TSV and CSV)
        String line = cursor.next();
        if (layout.kind() != ColumnLayout.Kind.JSONL) {
            if (layout.header()) {
                if (line == null) {
                    throw cursor.error("a header line naming the columns", "end of input");
                }
                at = positions(split(line, layout.kind(), cursor), layout, cursor);
                line = cursor.next();
            } else {
                at = ColumnLayout.concat(layout.label(), layout.inputs()).stream().mapToInt(Integer::parseInt)
                        .toArray();
            }
        }
        Map<String, Integer> labels = new HashMap<>();
        for (int k = 0; k < task.numClasses(); k++) {
            labels.put(task.labelValues().get(k), k);
        }
        List<Example> examples = new ArrayList<>();
        for (; line != null; line = cursor.next()) {
            List<String> fields = layout.kind() == ColumnLayout.Kind.JSONL
                    ? jsonFields(line, layout, cursor) : indexed(split(line, layout.kind(), cursor), at, cursor);
            String value = fields.get(0).strip();
            Integer label = labels.get(value);
            if (label == null) {
                throw cursor.error("a label in " + task.labelValues() + " in column " + quoted(layout.label()),
                        LineCursor.quote(fields.get(0)));
            }
            List<String> inputs = new ArrayList<>(fields.size() - 1);
            for (int i = 1; i < fields.size(); i++) {
                String text = fields.get(i).strip();
                if (text.isEmpty()) {
                    throw cursor.error("text in column " + quoted(layout.inputs().get(i - 1)), "an empty field");
                }
                inputs.add(text);
            }
            examples.add(new Example(inputs, label));
        }
        if (examples.isEmpty()) {
            throw cursor.error("at least one example", "end of input");
        }
        return new Dataset(task.name() + ":" + fileName(source), examples, task.labelNames());
    }

    private static String fileName(String source) {
        int slash = Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\'));
        return source.substring(slash + 1);
    }

    private static String quoted(String column) {
        return "'" + column + "'";
    }

    private static List<String> split(String line, ColumnLayout.Kind kind, LineCursor cursor) {
        return kind == ColumnLayout.Kind.CSV ? Csv.split(line, cursor) : Arrays.asList(line.split("\t", -1));
    }

    private static int[] positions(List<String> header, ColumnLayout layout, LineCursor cursor) {
        List<String> names = header.stream().map(String::strip).toList();
        List<String> wanted = ColumnLayout.concat(layout.label(), layout.inputs());
        int[] at = new int[wanted.size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = names.indexOf(wanted.get(i));
            if (at[i] < 0) {
                throw cursor.error("a header with column " + quoted(wanted.get(i)), "columns " + names);
            }
        }
        return at;
    }

    private static List<String> indexed(List<String> fields, int[] at, LineCursor cursor) {
        List<String> chosen = new ArrayList<>(at.length);
        for (int column : at) {
            if (column >= fields.size()) {
                throw cursor.error("at least " + (column + 1) + " fields", fields.size() + " fields");
            }
            chosen.add(fields.get(column));
        }
        return chosen;
    }

    private static List<String> jsonFields(String line, ColumnLayout layout, LineCursor cursor) {
        Map<String, String> object = JsonLine.parse(line, cursor);
        List<String> chosen = new ArrayList<>();
        for (String key : ColumnLayout.concat(layout.label(), layout.inputs())) {
            String value = object.get(key);
            if (value == null) {
                throw cursor.error("key " + quoted(key) + " with a string or number", "keys " + object.keySet());
            }
            chosen.add(value);
        }
        return chosen;
    }
}
