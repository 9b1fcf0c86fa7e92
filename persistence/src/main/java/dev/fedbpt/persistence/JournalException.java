package dev.fedbpt.persistence;

/** The journal cannot be opened, is damaged, or belongs to another experiment. */
public final class JournalException extends RuntimeException {
    public JournalException(String message) {
        super(message);
    }

    public JournalException(String message, Throwable cause) {
        super(message, cause);
    }
}
