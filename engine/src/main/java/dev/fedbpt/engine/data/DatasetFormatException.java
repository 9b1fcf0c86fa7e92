package dev.fedbpt.engine.data;

/**
 * A dataset file does not have the expected format. The message reads {@code "file:line: expected ... but found ..."}
 * so that an editor or a terminal can jump straight to the offending line.
 */
public final class DatasetFormatException extends RuntimeException {
    private final String file;
    private final int line;

    /**
     * @param file   the file name or resource name being read
     * @param line   the 1-based physical line number
     * @param detail what was expected and what was found
     */
    public DatasetFormatException(String file, int line, String detail) {
        super(file + ":" + line + ": " + detail);
        this.file = file;
        this.line = line;
    }

    public DatasetFormatException(String file, int line, String detail, Throwable cause) {
        this(file, line, detail);
        initCause(cause);
    }

    /** The file (or resource) that was being read. */
    public String file() {
        return file;
    }

    /** The 1-based line number of the offending line. */
    public int line() {
        return line;
    }
}
