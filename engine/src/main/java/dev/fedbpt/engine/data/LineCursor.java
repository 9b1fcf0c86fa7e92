package dev.fedbpt.engine.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;

/**
 * Streams the non-blank lines of a text source while keeping the physical line number, so that every format error
 * can name its line. Blank lines are skipped: they carry no example and editors like to add one at the end.
 */
final class LineCursor {
    private static final int MAX_FOUND_CHARS = 80;

    private final BufferedReader in;
    private final String source;
    private int lineNo;

    LineCursor(Reader reader, String source) {
        this.in = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
        this.source = source;
    }

    /** The next non-blank line without its terminator (LF or CRLF), or null at end of input. */
    String next() {
        while (true) {
            String line;
            try {
                line = in.readLine();
            } catch (CharacterCodingException e) {
                // The decoder works ahead of readLine, so the bad bytes are on this line or a later one.
                throw new DatasetFormatException(source, lineNo + 1,
                        "expected UTF-8 text but found malformed bytes (on this line or shortly after); for files in an "
                                + "older 8-bit encoding, data.encoding = auto reads them as windows-1252", e);
            } catch (IOException e) {
                throw new UncheckedIOException(source + ":" + (lineNo + 1) + ": read failed", e);
            }
            if (line == null) {
                return null;
            }
            lineNo++;
            if (lineNo == 1 && !line.isEmpty() && line.charAt(0) == '\uFEFF') {
                line = line.substring(1); // byte order mark written by some spreadsheet tools
            }
            if (!line.isBlank()) {
                return line;
            }
        }
    }

    /** Line number of the line last returned by {@link #next()} (or of the end of input after it returned null). */
    int lineNo() {
        return lineNo;
    }

    String source() {
        return source;
    }

    DatasetFormatException error(String expected, String found) {
        return new DatasetFormatException(source, Math.max(lineNo, 1), "expected " + expected + " but found " + found);
    }

    /** Quotes a found value for an error message, cut short so a huge line does not flood the log. */
    static String quote(String s) {
        String shown = s.length() <= MAX_FOUND_CHARS ? s : s.substring(0, MAX_FOUND_CHARS) + "...";
        return "'" + shown.replace("\t", "<TAB>") + "'";
    }
}
