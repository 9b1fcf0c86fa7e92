package dev.fedbpt.inference;

/**
 * How the similarity head turns a row's output vectors into one embedding ({@link SimilarityHead}).
 */
public enum Pooling {
    /** The model's own: {@link ModelSource#defaultPooling()} (mean for all-MiniLM-L6-v2 and for a model file). */
    DEFAULT,
    /** The mean over the row's own tokens ([CLS], text, [SEP]; not the prompt, not padding), as sentence-transformers. */
    MEAN,
    /** The output vector at [CLS], as BGE is trained. */
    CLS;

    /** This pooling, with {@link #DEFAULT} replaced by {@code source}'s. */
    public Pooling forModel(ModelSource source) {
        return this == DEFAULT ? source.defaultPooling() : this;
    }

    /**
     * The indices within {@code row} (token ids as {@link ModelTokenizer#encode} gives them) whose output vectors this
     * pooling reads: [CLS] alone, or for {@link #MEAN} [CLS] and the input's tokens from {@link #inputStart} to the
     * end ([SEP] included).
     */
    public int[] pooledIndices(int[] row, int separator) {
        return pooledIndices(row, separator, 0);
    }

    /**
     * As {@link #pooledIndices(int[], int)} for a row whose indices 1 to {@code tokenPrompt} hold a token prompt
     * ({@link ScoreRow#tokenPrompt}): the mean leaves them out, as it leaves out a continuous prompt's positions, so
     * that a long prompt does not outweigh the sentence in the embedding; it reaches the sentence's vectors through
     * attention.
     */
    public int[] pooledIndices(int[] row, int separator, int tokenPrompt) {
        if (this == CLS) return new int[]{0};
        if (this != MEAN) throw new IllegalArgumentException("resolve Pooling.DEFAULT for the model first");
        int start = Math.max(inputStart(row, separator), 1 + tokenPrompt);
        int[] idx = new int[1 + row.length - start];
        for (int i = start; i < row.length; i++) idx[1 + i - start] = i;
        return idx;
    }

    /**
     * Where a row's input begins: after a separator inside the row (a pair row's context, see
     * {@link ModelTokenizer#pair}), else right after [CLS].
     */
    public static int inputStart(int[] row, int separator) {
        for (int i = row.length - 2; i > 0; i--) {
            if (row[i] == separator) return i + 1;
        }
        return 1;
    }
}
