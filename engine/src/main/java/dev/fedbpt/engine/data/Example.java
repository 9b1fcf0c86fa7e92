package dev.fedbpt.engine.data;

import java.util.List;
import java.util.Objects;

/**
 * One labelled input: a single text, or a pair (premise and hypothesis, two questions) for the tasks that compare
 * two sentences.
 *
 * @param inputs the input texts in the task's input order, one or two, never null or blank
 * @param label  the 0-based class index
 */
public record Example(List<String> inputs, int label) {
    public Example {
        inputs = List.copyOf(inputs);
        if (inputs.isEmpty() || inputs.size() > 2) {
            throw new IllegalArgumentException("an example has one or two inputs but got " + inputs.size());
        }
        if (label < 0) {
            throw new IllegalArgumentException("label must be >= 0 but was " + label);
        }
    }

    /** A single-text example. */
    public Example(String text, int label) {
        this(List.of(Objects.requireNonNull(text, "text")), label);
    }

    /** The text, or both texts of a pair joined by a space (for demonstrations and token statistics). */
    public String text() {
        return inputs.size() == 1 ? inputs.get(0) : inputs.get(0) + " " + inputs.get(1);
    }
}
