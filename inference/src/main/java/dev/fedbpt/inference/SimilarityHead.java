package dev.fedbpt.inference;

/**
 * Similarity head for encoder-only exports (output = hidden states). A row's embedding is the mean of the output
 * vectors over the row's own tokens: [CLS], the text tokens and [SEP] (like sentence-transformers' mean pooling, which
 * averages every position whose attention mask is 1), but not the prompt positions and not the padding. Score of
 * class c = cos(row, label_c) / temperature, where label_c is the pooled embedding of the c-th label description,
 * computed once at load without a prompt. Sums are in double, in a fixed order, so a row's scores do not depend on
 * the batch it is in.
 */
final class SimilarityHead implements ClassHead {
    private final double[][] labelUnit;
    private final double temperature;

    /** @param labelEmbeddings pooled embeddings of the label descriptions */
    SimilarityHead(double[][] labelEmbeddings, double temperature) {
        this.labelUnit = new double[labelEmbeddings.length][];
        for (int c = 0; c < labelEmbeddings.length; c++) labelUnit[c] = unit(labelEmbeddings[c]);
        this.temperature = temperature;
    }

    @Override
    public int numClasses() {
        return labelUnit.length;
    }

    @Override
    public float[][] scores(float[] output, int width, EncodedBatch batch) {
        float[][] out = new float[batch.batch()][labelUnit.length];
        for (int r = 0; r < batch.batch(); r++) {
            double[] v = unit(pool(output, width, batch, r));
            for (int c = 0; c < labelUnit.length; c++) {
                double dot = 0;
                for (int h = 0; h < width; h++) dot += v[h] * labelUnit[c][h];
                out[r][c] = (float) (dot / temperature);
            }
        }
        return out;
    }

    /** Mean of the output vectors over row r's own token positions. */
    static double[] pool(float[] output, int width, EncodedBatch batch, int r) {
        double[] sum = new double[width];
        int tokens = batch.tokenIds()[r].length;
        for (int i = 0; i < tokens; i++) {
            int off = (r * batch.seq() + batch.positionOf(r, i)) * width;
            for (int h = 0; h < width; h++) sum[h] += output[off + h];
        }
        for (int h = 0; h < width; h++) sum[h] /= tokens;
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
