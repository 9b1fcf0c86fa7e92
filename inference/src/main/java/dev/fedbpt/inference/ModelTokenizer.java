package dev.fedbpt.inference;

import java.util.Arrays;

/**
 * The tokenising part of a model: what a member that only prepares data needs (token ids, their range and the
 * special ones), without anything that scores. {@link PromptTokenizer} is the real model's, loaded without an ONNX
 * Runtime session; every {@link ScoringModel} is one too.
 */
public interface ModelTokenizer extends AutoCloseable {
    /** Token ids of {@code text} with the model's special tokens ([CLS] ... [SEP]). */
    int[] encode(String text);

    /**
     * A context row and an input row, each as {@link #encode} returns it, joined into one row in BERT's pair layout,
     * [CLS] context [SEP] input [SEP]: the input's leading [CLS] dropped. The similarity head pools such a row over
     * [CLS] and the input's segment only. Not cut: the caller checks the length against {@link #maxRowTokens}.
     */
    static int[] pair(int[] context, int[] input) {
        int[] row = Arrays.copyOf(context, context.length + input.length - 1);
        System.arraycopy(input, 1, row, context.length, input.length - 1);
        return row;
    }

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
