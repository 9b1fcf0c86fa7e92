package dev.fedbpt.inference;

/**
 * The tokenising part of a model: what a member that only prepares data needs (token ids, their range and the
 * special ones), without anything that scores. {@link PromptTokenizer} is the real model's, loaded without an ONNX
 * Runtime session; every {@link ScoringModel} is one too.
 */
public interface ModelTokenizer extends AutoCloseable {
    /** Token ids of {@code text} with the model's special tokens ([CLS] ... [SEP]). */
    int[] encode(String text);

    /** Longest row {@link #encode} returns: longer texts are cut to it. */
    default int maxRowTokens() {
        return Integer.MAX_VALUE;
    }

    int vocabularySize();

    /** Ids that perturbation must never replace nor draw as replacements. */
    int[] specialTokenIds();

    @Override
    void close();
}
