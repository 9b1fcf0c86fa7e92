package dev.fedbpt.inference;

import java.util.List;

/**
 * The model as the rest of fedbpt sees it: a tokenizer and a batched "class scores for these rows, each with its
 * prompt A·z". {@link PromptModel} is the real one; {@link SyntheticModel} is a fast deterministic stand-in.
 */
public interface ScoringModel extends AutoCloseable {
    /** Token ids of {@code text} with the model's special tokens ([CLS] ... [SEP]). */
    int[] encode(String text);

    /** Longest row {@link #encode} returns: longer texts are cut to it. */
    default int maxRowTokens() {
        return Integer.MAX_VALUE;
    }

    int vocabularySize();

    /** Ids that perturbation must never replace nor draw as replacements. */
    int[] specialTokenIds();

    int numClasses();

    /** Class scores per row, [rows][classes]. One forward pass; per-row results do not depend on the batch. */
    float[][] score(List<ScoreRow> rows);

    @Override
    void close();
}
