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
}
