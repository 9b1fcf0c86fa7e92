package dev.fedbpt.engine.fedbpt;

import java.util.List;

/** Class scores [row][class] of the model with prompt A z on the given token rows. */
@FunctionalInterface
public interface BatchScorer {
    float[][] score(double[] z, List<int[]> rows);
}
