package dev.fedbpt.inference;

import java.util.stream.IntStream;

/**
 * The fixed random projection A, (n_prompt·hidden) × d, stored row-major as {@code float[]}: row r = prompt vector
 * r / hidden, coordinate r % hidden. Entries are N(0, (std_emb / sqrt(d))²) drawn in row-major order from
 * {@link GaussianStream}(seed), computed in double and rounded to float; std_emb is the standard deviation of all
 * entries of the word-embedding matrix (the reference code's alpha = 1, sigma0 = 1).
 */
final class RandomProjection {
    /** Multiply-adds above which the expansion is split over the cores (the forward is idle meanwhile). */
    private static final long PARALLEL_THRESHOLD = 1L << 20;
    private static final int PARALLELISM = Math.max(1, Runtime.getRuntime().availableProcessors());
    private final float[] a;
    private final int rows;
    private final int d;
    private final double scale;

    RandomProjection(int promptLength, int hidden, int d, long seed, double embeddingStd) {
        long size = (long) promptLength * hidden * d;
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("projection A of " + size + " entries is too large");
        }
        this.rows = promptLength * hidden;
        this.d = d;
        this.scale = embeddingStd / Math.sqrt(d);
        this.a = new float[(int) size];
        GaussianStream g = new GaussianStream(seed);
        for (int i = 0; i < a.length; i++) a[i] = (float) (g.next() * scale);
    }

    int rows() {
        return rows;
    }

    int dimension() {
        return d;
    }

    /** Standard deviation of the entries by construction. */
    double entryStd() {
        return scale;
    }

    float entry(int row, int col) {
        return a[row * d + col];
    }

    /**
     * Expands several z at once, streaming A once: out[k][r] = sum_j A[r, j] · z_k[j], accumulated in float with
     * eight independent partial sums per dot product (so the JIT can overlap them) and a fixed summation order;
     * large expansions are split by rows of A over the common fork-join pool (A is memory-bound: one core does not
     * saturate the memory bus).
     * The result for a z does not depend on which other z are expanded with it.
     */
    float[][] expand(double[][] zs) {
        int k = zs.length;
        float[][] zf = new float[k][d];
        for (int i = 0; i < k; i++) {
            if (zs[i].length != d) throw new IllegalArgumentException("z has length " + zs[i].length + ", expected " + d);
            for (int j = 0; j < d; j++) zf[i][j] = (float) zs[i][j];
        }
        float[][] out = new float[k][rows];
        long work = (long) rows * d * k;
        int chunks = work < PARALLEL_THRESHOLD ? 1 : Math.min(PARALLELISM, rows);
        if (chunks == 1) {
            expandRows(zf, out, 0, rows);
        } else {
            IntStream.range(0, chunks).parallel()
                    .forEach(c -> expandRows(zf, out, (int) ((long) rows * c / chunks), (int) ((long) rows * (c + 1) / chunks)));
        }
        return out;
    }

    /** Rows [from, to) of A·z for each z; each output element is computed the same way whatever the split. */
    private void expandRows(float[][] zf, float[][] out, int from, int to) {
        int k = zf.length;
        int d8 = d & ~7;
        for (int r = from; r < to; r++) {
            int base = r * d;
            for (int i = 0; i < k; i++) {
                float[] z = zf[i];
                float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
                int j = 0;
                for (; j < d8; j += 8) {
                    int p = base + j;
                    s0 += a[p] * z[j];
                    s1 += a[p + 1] * z[j + 1];
                    s2 += a[p + 2] * z[j + 2];
                    s3 += a[p + 3] * z[j + 3];
                    s4 += a[p + 4] * z[j + 4];
                    s5 += a[p + 5] * z[j + 5];
                    s6 += a[p + 6] * z[j + 6];
                    s7 += a[p + 7] * z[j + 7];
                }
                for (; j < d; j++) s0 += a[base + j] * z[j];
                out[i][r] = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
            }
        }
    }
}
