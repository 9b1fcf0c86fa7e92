package dev.fedbpt.engine.data;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a task's label and inputs are in a data file with named columns: GLUE's TSV releases, or a user's own CSV,
 * TSV or JSON Lines file. Read by {@link ColumnReader}.
 *
 * @param kind   the file's syntax
 * @param header whether the first line names the columns (TSV and CSV; JSON Lines names them on every line)
 * @param label  the label's column: a name, or with {@code header = false} a 0-based index written as digits
 * @param inputs the input columns, in the task's input order, written like {@code label}
 */
public record ColumnLayout(Kind kind, boolean header, String label, List<String> inputs) {

    public enum Kind {
        /** Tab-separated, no quoting (GLUE's files: a quote character is ordinary text). */
        TSV,
        /** Comma-separated with RFC 4180 quoting. */
        CSV,
        /** One JSON object per line; columns are its keys, values strings or numbers. */
        JSONL;

        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ColumnLayout {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(label, "label");
        inputs = List.copyOf(inputs);
        if (kind == Kind.JSONL && !header) {
            throw new IllegalArgumentException("a JSON Lines file names its columns on every line, so header must"
                    + " be true");
        }
        if (!header) {
            for (String column : concat(label, inputs)) {
                if (!column.matches("\\d{1,4}")) {
                    throw new IllegalArgumentException("without a header line, columns are 0-based indices, but got '"
                            + column + "'");
                }
            }
        }
    }

    static List<String> concat(String first, List<String> rest) {
        java.util.ArrayList<String> all = new java.util.ArrayList<>(rest.size() + 1);
        all.add(first);
        all.addAll(rest);
        return all;
    }
}
