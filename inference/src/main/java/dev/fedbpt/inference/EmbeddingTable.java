package dev.fedbpt.inference;

import java.nio.FloatBuffer;

/** The word-embedding matrix [vocab, hidden], row-major, kept in Java after it is cut out of the graph. */
final class EmbeddingTable {
    private final float[] weights;
    private final int vocabularySize;
    private final int hiddenSize;

    EmbeddingTable(float[] weights, int vocabularySize, int hiddenSize) {
        if ((long) vocabularySize * hiddenSize != weights.length) {
            throw new IllegalArgumentException("embedding table size mismatch");
        }
        this.weights = weights;
        this.vocabularySize = vocabularySize;
        this.hiddenSize = hiddenSize;
    }

    /** The matrix, row-major; read only. */
    float[] weights() {
        return weights;
    }

    int vocabularySize() {
        return vocabularySize;
    }

    int hiddenSize() {
        return hiddenSize;
    }

    /** Copies the embedding of {@code tokenId} into {@code out} at absolute float offset {@code offset}. */
    void copyRow(int tokenId, FloatBuffer out, int offset) {
        if (tokenId < 0 || tokenId >= vocabularySize) {
            throw new IllegalArgumentException("token id " + tokenId + " outside vocabulary [0, " + vocabularySize + ")");
        }
        out.put(offset, weights, tokenId * hiddenSize, hiddenSize);
    }

    /** Population standard deviation of all entries (two-pass, in double). */
    double standardDeviation() {
        double sum = 0;
        for (float w : weights) sum += w;
        double mean = sum / weights.length;
        double sq = 0;
        for (float w : weights) {
            double d = w - mean;
            sq += d * d;
        }
        return Math.sqrt(sq / weights.length);
    }
}
