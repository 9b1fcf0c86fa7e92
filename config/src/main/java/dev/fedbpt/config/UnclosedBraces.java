package dev.fedbpt.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Says which '{' of a HOCON file is never closed. The parser's own words for a file that ends inside an object
 * ("expecting a close parentheses ')' here, not: end of file") name neither the brace nor its line.
 */
final class UnclosedBraces {
    private UnclosedBraces() {
    }

    /** "a '{' opened at line 3 is never closed (the file ends first)", or null when every brace is closed. */
    static String describe(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        Deque<Integer> open = new ArrayDeque<>();
        int line = 1;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '\n') {
                line++;
            } else if (ch == '"') { // a quoted string (triple quotes too): braces inside it do not count
                boolean triple = text.startsWith("\"\"\"", i);
                int end = triple ? text.indexOf("\"\"\"", i + 3) : closingQuote(text, i + 1);
                if (end < 0) return null;
                for (int k = i; k < end; k++) if (text.charAt(k) == '\n') line++;
                i = triple ? end + 2 : end;
            } else if (ch == '#' || text.startsWith("//", i)) { // a comment runs to the end of its line
                while (i + 1 < text.length() && text.charAt(i + 1) != '\n') i++;
            } else if (ch == '{') {
                open.push(line);
            } else if (ch == '}' && !open.isEmpty()) {
                open.pop();
            }
        }
        if (open.isEmpty()) return null;
        return open.size() == 1 ? "a '{' opened at line " + open.peek() + " is never closed (the file ends first)"
                : open.size() + " '{' are never closed (the file ends first); the innermost opened at line "
                        + open.peek() + ", the outermost at line " + open.peekLast();
    }

    private static int closingQuote(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '\\') i++;
            else if (ch == '"') return i;
            else if (ch == '\n') return -1;
        }
        return -1;
    }
}
