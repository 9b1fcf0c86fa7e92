package dev.fedbpt.engine.data;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses one line of a JSON Lines data file: a flat JSON object whose values are strings, numbers, booleans or null.
 * Numbers and booleans are kept as written ({@code 1}, {@code true}), so a label written as a number matches the
 * task's label value {@code "1"}; null values are left out; nested objects and arrays are refused, with the line.
 * The engine has no JSON library, and a data row needs no more than this.
 */
final class JsonLine {
    private final String s;
    private final LineCursor cursor;
    private int i;

    private JsonLine(String s, LineCursor cursor) {
        this.s = s;
        this.cursor = cursor;
    }

    static Map<String, String> parse(String line, LineCursor cursor) {
        JsonLine p = new JsonLine(line, cursor);
        Map<String, String> object = p.object();
        p.space();
        if (p.i != line.length()) {
            throw p.fail("end of line after the object");
        }
        return object;
    }

    private Map<String, String> object() {
        Map<String, String> out = new LinkedHashMap<>();
        space();
        expect('{');
        space();
        if (peek() == '}') {
            i++;
            return out;
        }
        while (true) {
            space();
            String key = string();
            space();
            expect(':');
            space();
            String value = value();
            if (value != null) {
                out.put(key, value);
            }
            space();
            char c = peek();
            i++;
            if (c == '}') {
                return out;
            }
            if (c != ',') {
                i--;
                throw fail("',' or '}'");
            }
        }
    }

    private String value() {
        char c = peek();
        if (c == '"') {
            return string();
        }
        if (c == '{' || c == '[') {
            throw fail("a string, number, boolean or null (a data row is a flat object)");
        }
        int start = i;
        while (i < s.length() && ",} \t".indexOf(s.charAt(i)) < 0) {
            i++;
        }
        String word = s.substring(start, i);
        if (word.equals("null")) {
            return null;
        }
        if (word.equals("true") || word.equals("false") || word.matches("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?")) {
            return word;
        }
        i = start;
        throw fail("a string, number, boolean or null");
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (i >= s.length()) {
                break;
            }
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (i + 4 > s.length() || !s.substring(i, i + 4).matches("[0-9a-fA-F]{4}")) {
                        throw fail("four hex digits after \\u");
                    }
                    out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                }
                default -> {
                    i -= 2;
                    throw fail("a JSON escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
                }
            }
        }
        throw fail("a closing '\"'");
    }

    private void space() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private char peek() {
        if (i >= s.length()) {
            throw fail("more of the object");
        }
        return s.charAt(i);
    }

    private void expect(char c) {
        if (peek() != c) {
            throw fail("'" + c + "'");
        }
        i++;
    }

    private DatasetFormatException fail(String expected) {
        String rest = i >= s.length() ? "end of line" : "column " + (i + 1) + ": " + LineCursor.quote(s.substring(i));
        return cursor.error("a JSON object (" + expected + ")", rest);
    }
}
