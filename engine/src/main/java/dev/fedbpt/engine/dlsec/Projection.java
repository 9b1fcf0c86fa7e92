package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.TokenEmbeddings;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;

import org.apache.commons.math3.random.RandomGenerator;

/**
 * BBT's random projection for post-tuning: A in R^{(T D) x d} with N(0, s^2) entries, s = std(E) / sqrt(d) (BBT's
 * scale with the reference sigma 1, so that post-tuning's sigma 0.1 means a small step), one z projected onto the
 * whole prompt (BBT's form, where the paper writes a per-token A). One A for every client, drawn from the seed.
 */
final class Projection {
    private final int rows;
    private final int dimension;
    private final float[] entries;

    Projection(int promptLength, TokenEmbeddings embeddings, int dimension, long seed) {
        this.rows = promptLength * embeddings.hiddenSize();
        this.dimension = dimension;
        double scale = embeddings.standardDeviation() / Math.sqrt(dimension);
        RandomGenerator rng = Rng.of(seed, Purpose.DLSEC_PROJECTION);
        entries = new float[rows * dimension];
        for (int i = 0; i < entries.length; i++) {
            entries[i] = (float) (rng.nextGaussian() * scale);
        }
    }

    /** P' + reshape(A z). */
    float[][] apply(float[][] base, double[] z) {
        int hidden = base[0].length;
        float[][] out = new float[base.length][hidden];
        for (int t = 0; t < base.length; t++) {
            for (int j = 0; j < hidden; j++) {
                int offset = (t * hidden + j) * dimension;
                double sum = 0;
                for (int k = 0; k < dimension; k++) {
                    sum += entries[offset + k] * z[k];
                }
                out[t][j] = (float) (base[t][j] + sum);
            }
        }
        return out;
    }

    int dimension() {
        return dimension;
    }
}
