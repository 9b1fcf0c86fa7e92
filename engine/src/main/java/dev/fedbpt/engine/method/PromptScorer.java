package dev.fedbpt.engine.method;

import java.util.List;

/** Class scores [row][class] of the model with {@code prompt} on the given token rows. */
@FunctionalInterface
public interface PromptScorer {
    float[][] score(Prompt prompt, List<int[]> rows);
}
