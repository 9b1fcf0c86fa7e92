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
 * @param tokenPrompt how many of {@code tokenIds}, right after the first, are a token prompt rather than the row's own
 *                 text (0: none); the similarity head leaves them out of its mean ({@link Pooling#pooledIndices})
 */
public record ScoreRow(double[] z, int[] tokenIds, float[] embeds, int[] labelRow, int tokenPrompt) {
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
        if (tokenPrompt < 0 || tokenPrompt >= tokenIds.length) {
            throw new IllegalArgumentException("a token prompt of " + tokenPrompt + " tokens in a row of "
                    + tokenIds.length);
        }
    }

    /** A row without a token prompt. */
    public ScoreRow(double[] z, int[] tokenIds, float[] embeds, int[] labelRow) {
        this(z, tokenIds, embeds, labelRow, 0);
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
