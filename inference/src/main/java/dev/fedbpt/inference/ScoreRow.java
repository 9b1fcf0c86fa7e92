package dev.fedbpt.inference;

/**
 * One example to score, with at most one prompt: coordinates z the model projects, or the prompt's input embeddings
 * themselves.
 *
 * @param z        the prompt coordinates (length d), or {@code null}
 * @param tokenIds the full row as produced by {@link PromptModel#encode(String)}, including [CLS] ... [SEP];
 *                 the prompt vectors are inserted after position 0
 * @param embeds   the prompt's input embeddings, T vectors of the model's hidden size one after another, or
 *                 {@code null}
 */
public record ScoreRow(double[] z, int[] tokenIds, float[] embeds) {
    public ScoreRow {
        if (tokenIds == null || tokenIds.length < 1) throw new IllegalArgumentException("a row needs at least one token");
        if (z != null && embeds != null) {
            throw new IllegalArgumentException("a row takes coordinates z or embeddings, not both");
        }
        if (embeds != null && embeds.length == 0) {
            throw new IllegalArgumentException("an embeddings prompt needs at least one vector");
        }
    }

    public ScoreRow(double[] z, int[] tokenIds) {
        this(z, tokenIds, null);
    }

    /** A row with its prompt given as input embeddings (T x hidden floats, row-major). */
    public static ScoreRow withEmbeddings(float[] embeds, int[] tokenIds) {
        return new ScoreRow(null, tokenIds, embeds);
    }

    public static ScoreRow withoutPrompt(int[] tokenIds) {
        return new ScoreRow(null, tokenIds);
    }
}
