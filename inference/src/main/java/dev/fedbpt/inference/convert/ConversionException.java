package dev.fedbpt.inference.convert;

/** A foreign weight format could not be read or converted; the message names the file and what is wrong. */
public final class ConversionException extends Exception {
    public ConversionException(String message) {
        super(message);
    }

    public ConversionException(String message, Throwable cause) {
        super(message, cause);
    }
}
