package dev.fedbpt.engine.method;

/**
 * The frozen model's word-embedding matrix E [vocabulary, hidden], row-major, for methods that work in the model's
 * input space (a prompt made of token embeddings, a server that compresses onto them). The array is shared, never
 * copied: nobody writes to it.
 */
public final class TokenEmbeddings {
    private final int vocabularySize;
    private final int hiddenSize;
    private final float[] weights;

    public TokenEmbeddings(int vocabularySize, int hiddenSize, float[] weights) {
        if (vocabularySize < 1 || hiddenSize < 1 || weights == null
                || (long) vocabularySize * hiddenSize != weights.length) {
            throw new IllegalArgumentException("an embedding matrix of " + vocabularySize + " x " + hiddenSize
                    + " needs that many weights, had " + (weights == null ? "none" : weights.length));
        }
        this.vocabularySize = vocabularySize;
        this.hiddenSize = hiddenSize;
        this.weights = weights;
    }

    public int vocabularySize() {
        return vocabularySize;
    }

    public int hiddenSize() {
        return hiddenSize;
    }

    /** E[token, j]. */
    public float get(int token, int j) {
        return weights[token * hiddenSize + j];
    }

    /** A copy of row {@code token}. */
    public float[] row(int token) {
        if (token < 0 || token >= vocabularySize) {
            throw new IllegalArgumentException("token id " + token + " outside [0, " + vocabularySize + ")");
        }
        float[] out = new float[hiddenSize];
        System.arraycopy(weights, token * hiddenSize, out, 0, hiddenSize);
        return out;
    }

    /** The matrix itself, row-major; read only. */
    public float[] weights() {
        return weights;
    }

    /** Population standard deviation of all entries, two-pass in double (BBT scales its projection by it). */
    public double standardDeviation() {
        double sum = 0;
        for (float w : weights) {
            sum += w;
        }
        double mean = sum / weights.length;
        double squares = 0;
        for (float w : weights) {
            double d = w - mean;
            squares += d * d;
        }
        return Math.sqrt(squares / weights.length);
    }
}
