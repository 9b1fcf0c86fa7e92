package dev.fedbpt.inference;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A deterministic stand-in for a language model, with the same interface: words hash to token ids, and the score
 * of class c for a row is a fixed random linear function of its tokens plus one of the prompt z. It has no
 * language understanding; it exists so that tests and engine benchmarks can drive the whole system (thousands of
 * rows per second, exact per-row results) without loading a transformer.
 */
public final class SyntheticModel implements ScoringModel {
    static final int PAD = 0;
    static final int UNKNOWN = 100;
    static final int CLS = 101;
    static final int SEP = 102;
    static final int MASK = 103;
    private static final int FIRST_WORD_ID = 1000;

    private final int vocabularySize;
    private final int numClasses;
    private final int dimension;
    /** Width of the synthetic word embeddings (a small stand-in for the encoders' 384). */
    static final int HIDDEN = 16;

    private final float[] tokenWeights;
    private final float[] promptWeights;
    private final long seed;
    private volatile float[] wordEmbeddings;

    public SyntheticModel(int vocabularySize, int numClasses, int dimension, long seed) {
        if (vocabularySize <= FIRST_WORD_ID || numClasses < 2 || dimension < 0) {
            throw new IllegalArgumentException("synthetic model needs vocabulary > " + FIRST_WORD_ID
                    + ", at least 2 classes and dimension >= 0");
        }
        this.vocabularySize = vocabularySize;
        this.numClasses = numClasses;
        this.dimension = dimension;
        this.seed = seed;
        SplittableRandom random = new SplittableRandom(seed);
        tokenWeights = new float[vocabularySize * numClasses];
        for (int i = 0; i < tokenWeights.length; i++) {
            tokenWeights[i] = (float) (random.nextDouble() * 2 - 1);
        }
        promptWeights = new float[dimension * numClasses];
        for (int i = 0; i < promptWeights.length; i++) {
            promptWeights[i] = (float) ((random.nextDouble() * 2 - 1) / Math.sqrt(dimension));
        }
    }

    @Override
    public int[] encode(String text) {
        List<Integer> ids = new ArrayList<>();
        ids.add(CLS);
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}\\[\\]]+")) {
            if (word.isEmpty()) {
                continue;
            }
            ids.add(word.equals("[mask]") ? MASK
                    : FIRST_WORD_ID + Math.floorMod(word.hashCode(), vocabularySize - FIRST_WORD_ID));
        }
        ids.add(SEP);
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public int vocabularySize() {
        return vocabularySize;
    }

    @Override
    public int[] specialTokenIds() {
        return new int[] {PAD, UNKNOWN, CLS, SEP, MASK};
    }

    @Override
    public int hiddenSize() {
        return HIDDEN;
    }

    /** Uniform in [-1, 1), drawn from the model's seed on first call. */
    @Override
    public float[] wordEmbeddings() {
        float[] table = wordEmbeddings;
        if (table == null) {
            synchronized (this) {
                if (wordEmbeddings == null) {
                    SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
                    float[] w = new float[vocabularySize * HIDDEN];
                    for (int i = 0; i < w.length; i++) {
                        w[i] = (float) (random.nextDouble() * 2 - 1);
                    }
                    wordEmbeddings = w;
                }
                table = wordEmbeddings;
            }
        }
        return table;
    }

    @Override
    public int numClasses() {
        return numClasses;
    }

    @Override
    public float[][] score(List<ScoreRow> rows) {
        float[][] scores = new float[rows.size()][];
        for (int r = 0; r < rows.size(); r++) {
            scores[r] = scoreRow(rows.get(r));
        }
        return scores;
    }

    private float[] scoreRow(ScoreRow row) {
        float[] scores = new float[numClasses];
        int[] tokens = row.tokenIds();
        for (int token : tokens) {
            int base = Math.floorMod(token, vocabularySize) * numClasses;
            for (int c = 0; c < numClasses; c++) {
                scores[c] += tokenWeights[base + c] / tokens.length;
            }
        }
        double[] z = row.z();
        if (z != null) {
            if (z.length != dimension) {
                throw new IllegalArgumentException("prompt has dimension " + z.length + ", expected " + dimension);
            }
            for (int i = 0; i < dimension; i++) {
                for (int c = 0; c < numClasses; c++) {
                    scores[c] += (float) (z[i] * promptWeights[i * numClasses + c]);
                }
            }
        }
        float[] embeds = row.embeds();
        if (embeds != null) { // a fixed linear read of the vectors, so that different embeddings score differently
            if (dimension == 0) {
                throw new IllegalArgumentException("an embeddings prompt needs a synthetic model with dimension >= 1");
            }
            for (int k = 0; k < embeds.length; k++) {
                for (int c = 0; c < numClasses; c++) {
                    scores[c] += embeds[k] * promptWeights[(k % dimension) * numClasses + c] / embeds.length;
                }
            }
        }
        return scores;
    }

    @Override
    public void close() {
        // nothing to release
    }
}
