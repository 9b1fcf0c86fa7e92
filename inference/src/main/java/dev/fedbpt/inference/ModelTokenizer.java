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

    /**
     * {@code ids} cut to {@code max} tokens, keeping the final special token ([SEP]) when the row ends with one; a
     * row that fits is returned as it is.
     */
    static int[] cut(int[] ids, int max, java.util.function.IntPredicate special) {
        if (ids.length <= max) {
            return ids;
        }
        int[] cut = Arrays.copyOf(ids, max);
        int last = ids[ids.length - 1];
        if (special.test(last)) {
            cut[max - 1] = last;
        }
        return cut;
    }

    /**
     * This tokenizer with rows cut to {@code maxRowTokens} (when shorter than its own limit): long inputs cost less
     * to score, at the price of their ends.
     */
    default ModelTokenizer cappedAt(int maxRowTokens) {
        if (maxRowTokens <= 0 || maxRowTokens >= maxRowTokens()) {
            return this;
        }
        ModelTokenizer full = this;
        java.util.Set<Integer> special = new java.util.HashSet<>();
        for (int id : specialTokenIds()) {
            special.add(id);
        }
        return new ModelTokenizer() {
            @Override
            public int[] encode(String text) {
                return cut(full.encode(text), maxRowTokens, special::contains);
            }

            @Override
            public int maxRowTokens() {
                return maxRowTokens;
            }

            @Override
            public int vocabularySize() {
                return full.vocabularySize();
            }

            @Override
            public int[] specialTokenIds() {
                return full.specialTokenIds();
            }

            @Override
            public int hiddenSize() {
                return full.hiddenSize();
            }

            @Override
            public float[] wordEmbeddings() {
                return full.wordEmbeddings();
            }

            @Override
            public void close() {
                // the full tokenizer's owner closes it
            }
        };
    }

    /** Longest row {@link #encode} returns: longer texts are cut to it. */
    default int maxRowTokens() {
        return Integer.MAX_VALUE;
    }

    int vocabularySize();

    /** Ids that perturbation must never replace nor draw as replacements. */
    int[] specialTokenIds();

    /** Width of the model's input embeddings. */
    default int hiddenSize() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no embeddings");
    }

    /**
     * The word-embedding matrix [vocabularySize, hiddenSize], row-major (for methods that search or compress in the
     * model's input space). Shared, not copied: read only. Loaded on first call where it is not already in memory.
     */
    default float[] wordEmbeddings() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no embeddings");
    }

    /** Transformer layers, for methods that put prompts on every layer (a white-box model knows them). */
    default int layers() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not say how many layers it has");
    }

    @Override
    void close();
}
