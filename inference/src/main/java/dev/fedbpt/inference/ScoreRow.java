package dev.fedbpt.inference;

/**
 * One example to score.
 *
 * @param z        the prompt coordinates (length d), or {@code null} for no prompt
 * @param tokenIds the full row as produced by {@link PromptModel#encode(String)}, including [CLS] ... [SEP];
 *                 the prompt vectors are inserted after position 0
 */
public record ScoreRow(double[] z, int[] tokenIds) {
    public ScoreRow {
        if (tokenIds == null || tokenIds.length < 1) throw new IllegalArgumentException("a row needs at least one token");
    }

    public static ScoreRow withoutPrompt(int[] tokenIds) {
        return new ScoreRow(null, tokenIds);
    }
}
