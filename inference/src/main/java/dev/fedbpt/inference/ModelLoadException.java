package dev.fedbpt.inference;

/** A model could not be loaded, rewritten or verified. The message names the source and what was found. */
public class ModelLoadException extends Exception {
    public ModelLoadException(String message) {
        super(message);
    }

    public ModelLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
