package dev.fedbpt.actors;

import dev.fedbpt.inference.ScoreRow;
import java.util.List;

/** One forward pass over a batch of rows, returning class scores per row. A model session, or a fake in tests. */
@FunctionalInterface
public interface RowScorer {
    float[][] score(List<ScoreRow> rows);
}
