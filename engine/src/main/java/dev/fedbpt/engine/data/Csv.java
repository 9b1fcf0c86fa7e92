package dev.fedbpt.engine.data;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one CSV line into fields following RFC 4180: a field may be quoted with {@code "}, a quoted field may contain
 * commas, and {@code ""} inside it is one literal quote.
 *
 * <p>Deliberately not supported, and why:
 * <ul>
 *   <li>Line breaks inside quoted fields: the releases we read (AG News, Yelp polarity) encode line breaks as
 *       backslash sequences, so a quote left open at the end of a line is a malformed record, and reporting it on
 *       that line is far more useful than silently swallowing the rest of the file.</li>
 *   <li>Backslash escapes: in the AG News release {@code \} marks a removed line break and {@code \$} a dollar sign;
 *       {@code "...\\""Sven"} is two line-break marks followed by an RFC 4180 {@code ""}. Treating {@code \"} as an
 *       escaped quote would turn {@code \team} into a tab. Those conventions are per release, so the readers undo
 *       them on the parsed text (see {@link DatasetReaders}).</li>
 * </ul>
 * A quote in the middle of an unquoted field is kept literally ({@code 5" screen}), as most CSV readers do.
 */
final class Csv {
    private Csv() {
    }

    static List<String> split(String line, LineCursor at) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        int n = line.length();
        int i = 0;
        while (true) {
            if (i < n && line.charAt(i) == '"') {
                int open = i++;
                field.setLength(0);
                while (true) {
                    if (i >= n) {
                        throw at.error("a closing quote for the field opened at column " + (open + 1),
                                "end of line");
                    }
                    char ch = line.charAt(i++);
                    if (ch != '"') {
                        field.append(ch);
                    } else if (i < n && line.charAt(i) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        break;
                    }
                }
                fields.add(field.toString());
                if (i >= n) {
                    return fields;
                }
                if (line.charAt(i) != ',') {
                    throw at.error("',' or end of line after the closing quote at column " + i,
                            LineCursor.quote(line.substring(i, Math.min(n, i + 20))));
                }
                i++;
            } else {
                int comma = line.indexOf(',', i);
                if (comma < 0) {
                    fields.add(line.substring(i));
                    return fields;
                }
                fields.add(line.substring(i, comma));
                i = comma + 1;
            }
        }
    }
}
