package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.ModelFacts;
import dev.fedbpt.engine.method.TokenEmbeddings;
import dev.fedbpt.engine.method.Upload;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import org.apache.commons.math3.random.RandomGenerator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where a DLS-EC round's time goes besides the forward passes, measured on a real embedding matrix: a local step's
 * cosine top-K over the vocabulary, and the server's aggregation (rebuild, average, LASSO compression of every
 * position) of uploads shaped like a round's (each client changing the positions S steps would reach, to one of the
 * K tokens nearest the position's vector). For {@code fedbpt bench dls-ec}.
 */
public final class DlsEcTimings {
    /** Milliseconds: index build once, per top-K, per aggregation (all positions), per position on average. */
    public record Result(int vocabulary, int hidden, int promptLength, int clients, int phi, double alpha,
                         String alphaScale, double indexMs, double nearestMs, double aggregateMs, long screenedPositions,
                         double meanTokenNorm, double meanResidualNorm) {}

    private DlsEcTimings() {}

    public static Result measure(TokenEmbeddings embeddings, Vocabulary vocabulary, int promptLength, int phi,
                                 double alpha, String alphaScale, int clients, int localSteps, int repeats,
                                 long seed) {
        DlsEcConfig.AlphaScale scale = DlsEcConfig.AlphaScale.valueOf(
                alphaScale.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        DlsEcConfig config = new DlsEcConfig(promptLength, 5, localSteps, phi, alpha, scale, 100,
                DlsEcConfig.Download.COMPRESSED, true, 32, 64, firstOrdinary(vocabulary, promptLength),
                new DlsEcConfig.PostTuning(500, 0.1, 20, 0, DlsEcConfig.Rows.TRAINING, 0, 1));
        long t0 = System.nanoTime();
        VocabularyIndex index = new VocabularyIndex(embeddings, vocabulary);
        double indexMs = (System.nanoTime() - t0) / 1e6;
        DlsEcMethod method = new DlsEcMethod(config,
                new MethodContext(NO_SETTINGS, 1, seed, ModelFacts.of(vocabulary, embeddings)));
        DlsEcState state = (DlsEcState) method.initialize();

        RandomGenerator rng = Rng.of(seed, Purpose.BENCHMARK);
        List<Upload> uploads = new ArrayList<>();
        long nearestNanos = 0;
        int nearestCalls = 0;
        for (int k = 0; k < clients; k++) {
            int[] ids = new int[promptLength];
            Arrays.fill(ids, SearchUpload.SKIP);
            for (int s = 0; s < localSteps; s++) {
                int t = rng.nextInt(promptLength);
                long n0 = System.nanoTime();
                int[] nearest = index.nearest(state.prompt()[t], 5);
                nearestNanos += System.nanoTime() - n0;
                nearestCalls++;
                ids[t] = nearest[rng.nextInt(nearest.length)];
            }
            uploads.add(new SearchUpload(0, k, 0.5, 32, ids));
        }
        method.aggregate(state, uploads); // warm-up (and the index the method builds for itself)
        long best = Long.MAX_VALUE;
        DlsEcState next = null;
        for (int r = 0; r < repeats; r++) {
            long a0 = System.nanoTime();
            next = (DlsEcState) method.aggregate(state, uploads);
            best = Math.min(best, System.nanoTime() - a0);
        }
        double tokenNorms = 0;
        for (int k = 0; k < index.size(); k++) {
            tokenNorms += Math.sqrt(index.squaredNorm(k));
        }
        // The residual the compression approximates, per position: the new prompt minus the previous one.
        double residualNorms = 0;
        for (int t = 0; t < promptLength; t++) {
            double sq = 0;
            for (int j = 0; j < embeddings.hiddenSize(); j++) {
                double d = next.prompt()[t][j] - state.prompt()[t][j];
                sq += d * d;
            }
            residualNorms += Math.sqrt(sq);
        }
        return new Result(embeddings.vocabularySize(), embeddings.hiddenSize(), promptLength, clients, phi, alpha,
                alphaScale, indexMs, nearestNanos / 1e6 / nearestCalls, best / 1e6, next.screenedPositions(),
                tokenNorms / index.size(), residualNorms / promptLength);
    }

    /** The first run of T ordinary tokens from id 1996 on (the defaults' first prompt in a BERT vocabulary). */
    private static int firstOrdinary(Vocabulary vocabulary, int length) {
        for (int first = Math.min(1996, vocabulary.size() - length); first >= 0; first--) {
            boolean ordinary = true;
            for (int t = 0; t < length && ordinary; t++) {
                ordinary = !vocabulary.isSpecial(first + t);
            }
            if (ordinary) {
                return first;
            }
        }
        throw new IllegalArgumentException("no " + length + " ordinary tokens in a row");
    }

    /** The method is built from its config here, so its settings are never read. */
    private static final MethodSettings NO_SETTINGS = new MethodSettings() {
        @Override
        public int integer(String key) {
            throw new UnsupportedOperationException(key);
        }

        @Override
        public double number(String key) {
            throw new UnsupportedOperationException(key);
        }

        @Override
        public String text(String key) {
            throw new UnsupportedOperationException(key);
        }

        @Override
        public <E extends Enum<E>> E choice(String key, Class<E> type) {
            throw new UnsupportedOperationException(key);
        }
    };
}
