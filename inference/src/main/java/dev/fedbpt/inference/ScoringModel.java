package dev.fedbpt.inference;

import java.util.List;

/**
 * The model as the rest of fedbpt sees it: a tokenizer and a batched "class scores for these rows, each with its
 * prompt A·z". {@link PromptModel} is the real one; {@link SyntheticModel} is a fast deterministic stand-in.
 */
public interface ScoringModel extends ModelTokenizer {
    int numClasses();

    /** Class scores per row, [rows][classes]. One forward pass; per-row results do not depend on the batch. */
    float[][] score(List<ScoreRow> rows);
}
