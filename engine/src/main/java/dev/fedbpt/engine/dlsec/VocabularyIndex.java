package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.TokenEmbeddings;

/**
 * The tokens DLS-EC may put into a prompt or compress onto (the vocabulary without its special tokens: a second
 * [CLS], [SEP] or [MASK] would change how the model reads the row), with their embeddings normalised once so that
 * the cosine top-K of Eq. 7 is one matrix-vector product.
 */
final class VocabularyIndex {
    private final TokenEmbeddings embeddings;
    private final int[] allowed;
    private final float[] unitRows;
    private final double[] squaredNorms;

    VocabularyIndex(TokenEmbeddings embeddings, Vocabulary vocabulary) {
        if (embeddings.vocabularySize() < vocabulary.size()) {
            throw new IllegalArgumentException("the embedding matrix has " + embeddings.vocabularySize()
                    + " rows, fewer than the vocabulary's " + vocabulary.size() + " tokens");
        }
        this.embeddings = embeddings;
        int hidden = embeddings.hiddenSize();
        allowed = new int[vocabulary.nonSpecialCount()];
        for (int k = 0; k < allowed.length; k++) {
            allowed[k] = vocabulary.nonSpecialToken(k);
        }
        unitRows = new float[allowed.length * hidden];
        squaredNorms = new double[allowed.length];
        float[] w = embeddings.weights();
        for (int k = 0; k < allowed.length; k++) {
            int base = allowed[k] * hidden;
            double sq = 0;
            for (int j = 0; j < hidden; j++) {
                sq += (double) w[base + j] * w[base + j];
            }
            squaredNorms[k] = sq;
            double inverse = sq > 0 ? 1 / Math.sqrt(sq) : 0;
            for (int j = 0; j < hidden; j++) {
                unitRows[k * hidden + j] = (float) (w[base + j] * inverse);
            }
        }
    }

    TokenEmbeddings embeddings() {
        return embeddings;
    }

    int hidden() {
        return embeddings.hiddenSize();
    }

    /** Allowed token ids, increasing. */
    int[] allowed() {
        return allowed;
    }

    int size() {
        return allowed.length;
    }

    /** ||E[allowed[k]]||^2. */
    double squaredNorm(int k) {
        return squaredNorms[k];
    }

    /**
     * The {@code k} allowed tokens whose embeddings have the largest cosine similarity with {@code vector} (Eq. 7's
     * smallest cosine distance), best first; equal similarities in token-id order.
     */
    int[] nearest(float[] vector, int k) {
        int hidden = hidden();
        double norm = 0;
        for (float v : vector) {
            norm += (double) v * v;
        }
        int count = Math.min(k, allowed.length);
        int[] best = new int[count];
        double[] bestScore = new double[count];
        java.util.Arrays.fill(bestScore, Double.NEGATIVE_INFINITY);
        double inverse = norm > 0 ? 1 / Math.sqrt(norm) : 0;
        for (int r = 0; r < allowed.length; r++) {
            int base = r * hidden;
            float dot = 0;
            for (int j = 0; j < hidden; j++) {
                dot += unitRows[base + j] * vector[j];
            }
            double score = dot * inverse;
            if (score > bestScore[count - 1]) { // strictly better: an earlier id keeps its place on a tie
                int at = count - 1;
                while (at > 0 && score > bestScore[at - 1]) {
                    bestScore[at] = bestScore[at - 1];
                    best[at] = best[at - 1];
                    at--;
                }
                bestScore[at] = score;
                best[at] = allowed[r];
            }
        }
        return best;
    }

    /** <E[allowed[k]], vector> in double. */
    double dot(int k, double[] vector) {
        float[] w = embeddings.weights();
        int base = allowed[k] * hidden();
        double sum = 0;
        for (int j = 0; j < vector.length; j++) {
            sum += w[base + j] * vector[j];
        }
        return sum;
    }

    /** vector += scale * E[allowed[k]]. */
    void addScaled(int k, double scale, double[] vector) {
        float[] w = embeddings.weights();
        int base = allowed[k] * hidden();
        for (int j = 0; j < vector.length; j++) {
            vector[j] += scale * w[base + j];
        }
    }
}
