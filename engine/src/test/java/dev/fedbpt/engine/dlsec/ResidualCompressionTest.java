package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.Fp16;
import dev.fedbpt.engine.method.TokenEmbeddings;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResidualCompressionTest {
    private final TokenEmbeddings embeddings = TestModels.embeddings(7);
    private final VocabularyIndex index = new VocabularyIndex(embeddings, TestModels.VOCAB);
    private final ResidualCompression compression = new ResidualCompression(index);

    @Test
    void nearestTokensAreTheBruteForceCosineTopKWithoutSpecialTokens() {
        SplittableRandom random = new SplittableRandom(3);
        for (int trial = 0; trial < 20; trial++) {
            float[] v = new float[TestModels.HIDDEN];
            for (int j = 0; j < v.length; j++) {
                v[j] = (float) random.nextGaussian();
            }
            Integer[] ids = new Integer[TestModels.VOCABULARY - 4];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = i + 4;
            }
            Arrays.sort(ids, (a, b) -> Double.compare(cosine(b, v), cosine(a, v)));
            int[] expected = Arrays.stream(ids).limit(5).mapToInt(Integer::intValue).toArray();
            assertArrayEquals(expected, index.nearest(v, 5));
        }
        assertEquals(17, index.nearest(embeddings.row(17), 1)[0], "a token's own embedding is its nearest");
    }

    private double cosine(int token, float[] v) {
        double dot = 0;
        double a = 0;
        double b = 0;
        for (int j = 0; j < v.length; j++) {
            dot += embeddings.get(token, j) * v[j];
            a += embeddings.get(token, j) * embeddings.get(token, j);
            b += v[j] * v[j];
        }
        return dot / Math.sqrt(a * b);
    }

    @Test
    void lassoSolutionMeetsTheOptimalityConditions() {
        double[] target = residual(new int[] {10, 50, 90}, new double[] {0.8, -0.5, 0.3}, 11);
        int[] pool = allPool();
        double alpha = 0.2;
        double[] x = compression.lasso(pool, target, alpha);
        double[] r = target.clone();
        for (int i = 0; i < pool.length; i++) {
            index.addScaled(pool[i], -x[i], r);
        }
        int nonzero = 0;
        for (int i = 0; i < pool.length; i++) {
            double correlation = index.dot(pool[i], r);
            if (x[i] == 0) {
                assertTrue(Math.abs(correlation) <= alpha / 2 + 1e-6, "inactive " + i + ": " + correlation);
            } else {
                nonzero++;
                assertEquals(Math.signum(x[i]) * alpha / 2, correlation, 1e-6, "active " + i);
            }
        }
        assertTrue(nonzero > 0);
    }

    @Test
    void aResidualMadeOfPhiTokensIsRecoveredWithItsCoefficients() {
        // Sparse recovery needs enough dimensions: 64 here (the encoders have 384), 8 elsewhere in this test.
        SplittableRandom random = new SplittableRandom(9);
        int hidden = 64;
        float[] w = new float[TestModels.VOCABULARY * hidden];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) random.nextGaussian();
        }
        TokenEmbeddings wide = new TokenEmbeddings(TestModels.VOCABULARY, hidden, w);
        ResidualCompression wideCompression = new ResidualCompression(new VocabularyIndex(wide, TestModels.VOCAB));
        int[] tokens = {10, 50, 90};
        double[] weights = {2.0, -1.5, 1.0};
        double[] target = new double[hidden];
        for (int m = 0; m < tokens.length; m++) {
            for (int j = 0; j < hidden; j++) {
                target[j] += weights[m] * wide.get(tokens[m], j);
            }
        }
        ResidualCompression.Result result = wideCompression.compress(target, 3, 0.2, DlsEcConfig.AlphaScale.ABSOLUTE, 20);
        int[] sorted = result.tokens().clone();
        Arrays.sort(sorted);
        assertArrayEquals(tokens, sorted);
        for (int m = 0; m < 3; m++) {
            int at = Arrays.binarySearch(tokens, result.tokens()[m]);
            assertEquals(weights[at], result.coefficients()[m], 2e-3, "fp16 keeps about 3 digits");
            assertEquals(result.coefficients()[m], Fp16.round(result.coefficients()[m]), "coefficients are fp16");
        }
        assertFalse(result.screened());
    }

    @Test
    void alphaZeroIsTheMinimumNormLeastSquaresSolution() {
        double[] target = residual(new int[] {20, 30}, new double[] {1, 1}, 5);
        int[] pool = allPool();
        double[] x = compression.leastSquares(pool, target);
        double[] fitted = new double[TestModels.HIDDEN];
        for (int i = 0; i < pool.length; i++) {
            index.addScaled(pool[i], x[i], fitted);
        }
        assertArrayEquals(target, fitted, 1e-6, "A^T x = R exactly when there are more tokens than dimensions");
        ResidualCompression.Result result = compression.compress(target, 3, 0, DlsEcConfig.AlphaScale.ABSOLUTE, 20);
        assertEquals(3, result.tokens().length);
    }

    @Test
    void aPenaltyThatZeroesEverythingFallsBackToTheMostCorrelatedTokens() {
        double[] target = residual(new int[] {40}, new double[] {0.01}, 0);
        ResidualCompression.Result result = compression.compress(target, 3, 1e6, DlsEcConfig.AlphaScale.ABSOLUTE, 20);
        assertTrue(result.screened());
        assertEquals(3, result.tokens().length);
    }

    @Test
    void aShareOfTheLargestUsefulWeightMeansOneSparsityWhateverTheEmbeddingScale() {
        double[] target = residual(new int[] {10, 50, 90}, new double[] {0.8, -0.5, 0.3}, 11);
        float[] w = embeddings.weights().clone();
        for (int i = 0; i < w.length; i++) {
            w[i] *= 3;
        }
        VocabularyIndex tripled = new VocabularyIndex(new TokenEmbeddings(TestModels.VOCABULARY, TestModels.HIDDEN,
                w), TestModels.VOCAB);
        ResidualCompression scaled = new ResidualCompression(tripled);
        double[] tripledTarget = Arrays.stream(target).map(v -> 3 * v).toArray();
        int[] pool = allPool();
        DlsEcConfig.AlphaScale share = DlsEcConfig.AlphaScale.MAX_CORRELATION;
        double weight = compression.weight(pool, target, 0.2, share);
        assertEquals(9 * weight, scaled.weight(pool, tripledTarget, 0.2, share), 1e-6 * weight,
                "the weight grows with the squared scale of embeddings and residual");
        assertArrayEquals(nonzero(compression.lasso(pool, target, weight)),
                nonzero(scaled.lasso(pool, tripledTarget, 9 * weight)), "the same tokens survive the penalty");
        assertEquals(0.2, compression.weight(pool, target, 0.2, DlsEcConfig.AlphaScale.ABSOLUTE));
        double[] none = compression.lasso(pool, target, compression.weight(pool, target, 1, share));
        assertTrue(Arrays.stream(none).allMatch(x -> x == 0), "a share of 1 zeroes every coefficient");
        assertFalse(compression.compress(target, 1, 0.5, share, 20).screened(),
                "below a share of 1 the most correlated token always survives: Phi = 1 needs no guard");
    }

    private static int[] nonzero(double[] x) {
        return java.util.stream.IntStream.range(0, x.length).filter(i -> x[i] != 0).toArray();
    }

    private int[] allPool() {
        int[] pool = new int[index.size()];
        Arrays.setAll(pool, i -> i);
        return pool;
    }

    /** sum_m weights[m] E[tokens[m]] plus a little noise. */
    private double[] residual(int[] tokens, double[] weights, double noiseSeed) {
        double[] r = new double[TestModels.HIDDEN];
        for (int m = 0; m < tokens.length; m++) {
            for (int j = 0; j < r.length; j++) {
                r[j] += weights[m] * embeddings.get(tokens[m], j);
            }
        }
        if (noiseSeed != 0) {
            SplittableRandom random = new SplittableRandom((long) noiseSeed);
            for (int j = 0; j < r.length; j++) {
                r[j] += 0.01 * random.nextGaussian();
            }
        }
        return r;
    }
}
