package dev.fedbpt.engine.data;

import java.util.Objects;

/**
 * One labelled text.
 *
 * @param text  the input text, never null (readers also reject blank text)
 * @param label the 0-based class index
 */
public record Example(String text, int label) {
    public Example {
        Objects.requireNonNull(text, "text");
        if (label < 0) {
            throw new IllegalArgumentException("label must be >= 0 but was " + label);
        }
    }
}
