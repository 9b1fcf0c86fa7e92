package dev.fedbpt.report;

import java.nio.file.Path;

/**
 * Input the report cannot use: a missing folder, an unreadable or malformed run file. The message names the file
 * (and the line, for {@code metrics.jsonl}) as {@code FILE:LINE: problem}. The CLI reports it in one line with exit
 * code 2, like the other bad-input errors.
 */
public final class ReportInputException extends RuntimeException {
    private final Path file;
    private final int line;

    public ReportInputException(Path file, int line, String problem) {
        this(file, line, problem, null);
    }

    public ReportInputException(Path file, int line, String problem, Throwable cause) {
        super((file == null ? "" : file + (line > 0 ? ":" + line : "") + ": ") + problem, cause);
        this.file = file;
        this.line = line;
    }

    /** The offending file or folder, or null when the error is not about one. */
    public Path file() {
        return file;
    }

    /** The 1-based line in {@link #file()}, or 0 when the error is about the whole file. */
    public int line() {
        return line;
    }
}
