package dev.fedbpt.engine.data;

import java.util.List;
import java.util.Objects;

/**
 * A named, immutable list of labelled examples together with the names of its classes.
 *
 * @param name       a human-readable name used in logs and results (e.g. "sst2:dev.tsv")
 * @param examples   the examples, in file order
 * @param labelNames class names; label {@code i} is {@code labelNames.get(i)}
 */
public record Dataset(String name, List<Example> examples, List<String> labelNames) {
    public Dataset {
        Objects.requireNonNull(name, "name");
        examples = List.copyOf(examples);
        labelNames = List.copyOf(labelNames);
        // Checked once here so that every consumer (few-shot sampling, partitioning, losses) can index by label.
        for (Example e : examples) {
            if (e.label() >= labelNames.size()) {
                throw new IllegalArgumentException("dataset " + name + ": label " + e.label()
                        + " is outside the " + labelNames.size() + " label names " + labelNames);
            }
        }
    }

    public int size() {
        return examples.size();
    }

    public int numClasses() {
        return labelNames.size();
    }

    /** Number of examples per class, indexed by label. */
    public int[] labelCounts() {
        int[] counts = new int[labelNames.size()];
        for (Example e : examples) {
            counts[e.label()]++;
        }
        return counts;
    }
}
