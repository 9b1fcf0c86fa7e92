package dev.fedbpt.inference;

/**
 * Similarity head for encoder-only exports (output = hidden states). A row's embedding is the mean of the output
 * vectors over the row's own tokens: [CLS], the text tokens and [SEP] (like sentence-transformers' mean pooling, which
 * averages every position whose attention mask is 1), but not the prompt positions (a continuous prompt's vectors,
 * and a token prompt's tokens unless the head is told to pool them, {@link HeadSpec.Similarity#poolsTokenPrompt}) and
 * not the padding. A pair row,
 * [CLS] context [SEP] input [SEP] ({@link ModelTokenizer#pair}), is pooled over [CLS] and the input's segment
 * only: the context (in-context demonstrations) reaches the input's vectors through attention, as it reaches the
 * [MASK] position a masked-LM head reads, instead of being averaged into the embedding, where the demonstrations'
 * own label descriptions outweighed the input (SST-2 development split, seeds 1 and 2: 0.615 and 0.500 pooling the
 * whole row, 0.740 and 0.590 pooling the input; docs/RESULTS.md). Score of class c = cos(row, label_c) /
 * temperature, where label_c is the pooled embedding of the c-th label description, computed once at load without a
 * prompt. Sums are in double, in a fixed order, so a row's scores do not depend on the batch it is in.
 *
 * <p>With {@link Pooling#CLS} a row's embedding is the output vector at [CLS] alone (as BGE is trained); a pair row's
 * input reaches it through attention.
 */
final class SimilarityHead implements ClassHead {
    private final double[][] labelUnit;
    private final double temperature;
    private final int separator;
    private final Pooling pooling;
    private final boolean poolsTokenPrompt;

    /**
     * @param labelEmbeddings pooled embeddings of the label descriptions
     * @param separator       the id the tokenizer ends a row with ([SEP]), which also ends a pair row's context
     */
    SimilarityHead(double[][] labelEmbeddings, double temperature, int separator) {
        this(labelEmbeddings, temperature, separator, Pooling.MEAN, false);
    }

    /**
     * @param pooling          {@link Pooling#MEAN} or {@link Pooling#CLS} (resolve {@link Pooling#DEFAULT} first)
     * @param poolsTokenPrompt whether the mean averages a row's token prompt in with its text
     *                         ({@link HeadSpec.Similarity#poolsTokenPrompt})
     */
    SimilarityHead(double[][] labelEmbeddings, double temperature, int separator, Pooling pooling,
                   boolean poolsTokenPrompt) {
        if (pooling == Pooling.DEFAULT) throw new IllegalArgumentException("resolve Pooling.DEFAULT for the model first");
        this.labelUnit = new double[labelEmbeddings.length][];
        for (int c = 0; c < labelEmbeddings.length; c++) labelUnit[c] = unit(labelEmbeddings[c]);
        this.temperature = temperature;
        this.separator = separator;
        this.pooling = pooling;
        this.poolsTokenPrompt = poolsTokenPrompt;
    }

    @Override
    public int numClasses() {
        return labelUnit.length;
    }

    @Override
    public float[][] scores(float[] output, int width, EncodedBatch batch) {
        float[][] out = new float[batch.batch()][labelUnit.length];
        for (int r = 0; r < batch.batch(); r++) {
            int leftOut = poolsTokenPrompt ? 0 : batch.tokenPrompt(r);
            double[] v = unit(pool(output, width, batch, r, separator, pooling, leftOut));
            for (int c = 0; c < labelUnit.length; c++) {
                double dot = 0;
                for (int h = 0; h < width; h++) dot += v[h] * labelUnit[c][h];
                out[r][c] = (float) (dot / temperature);
            }
        }
        return out;
    }

    /** Mean of the output vectors over row r's pooled positions: its first token and those from its input's start. */
    static double[] pool(float[] output, int width, EncodedBatch batch, int r, int separator) {
        return pool(output, width, batch, r, separator, Pooling.MEAN, 0);
    }

    /**
     * Row r's embedding: the mean of its output vectors over {@link Pooling#pooledIndices} (a token prompt's first
     * {@code tokenPromptLeftOut} positions left out), or its [CLS] vector.
     */
    static double[] pool(float[] output, int width, EncodedBatch batch, int r, int separator, Pooling pooling,
                         int tokenPromptLeftOut) {
        int[] pooled = pooling.pooledIndices(batch.tokenIds()[r], separator, tokenPromptLeftOut);
        double[] sum = new double[width];
        for (int i : pooled) {
            int off = (r * batch.seq() + batch.positionOf(r, i)) * width;
            for (int h = 0; h < width; h++) sum[h] += output[off + h];
        }
        if (pooled.length > 1) {
            for (int h = 0; h < width; h++) sum[h] /= pooled.length;
        }
        return sum;
    }

    private static double[] unit(double[] v) {
        double n = 0;
        for (double x : v) n += x * x;
        n = Math.sqrt(n);
        double[] u = new double[v.length];
        if (n == 0) return u;
        for (int i = 0; i < v.length; i++) u[i] = v[i] / n;
        return u;
    }
}
