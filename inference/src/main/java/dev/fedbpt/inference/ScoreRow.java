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
 * @param labelRow {@code null}, or a row of the same length whose [MASK] says where a masked-LM head reads this
 *                 row's label (a perturbed copy is read where its clean row has [MASK], even where its own token
 *                 there was replaced)
 */
public record ScoreRow(double[] z, int[] tokenIds, float[] embeds, int[] labelRow) {
    public ScoreRow {
        if (tokenIds == null || tokenIds.length < 1) throw new IllegalArgumentException("a row needs at least one token");
        if (z != null && embeds != null) {
            throw new IllegalArgumentException("a row takes coordinates z or embeddings, not both");
        }
        if (embeds != null && embeds.length == 0) {
            throw new IllegalArgumentException("an embeddings prompt needs at least one vector");
        }
        if (labelRow != null && labelRow.length != tokenIds.length) {
            throw new IllegalArgumentException("a row of " + tokenIds.length + " tokens with a label row of "
                    + labelRow.length);
        }
    }

    public ScoreRow(double[] z, int[] tokenIds) {
        this(z, tokenIds, null, null);
    }

    /** A row with its prompt given as input embeddings (T x hidden floats, row-major). */
    public static ScoreRow withEmbeddings(float[] embeds, int[] tokenIds) {
        return new ScoreRow(null, tokenIds, embeds, null);
    }

    public static ScoreRow withoutPrompt(int[] tokenIds) {
        return new ScoreRow(null, tokenIds);
    }
}
