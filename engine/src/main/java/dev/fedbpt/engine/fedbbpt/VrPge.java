package dev.fedbpt.engine.fedbbpt;

/**
 * BDPL's variance-reduced policy-gradient estimate of d loss / d theta from I sampled prompts, and its gradient
 * clip (run_glue_discrete_LM.py:608-621):
 * <pre>
 *   Lbar = (1/I) sum_k L_k
 *   G    = sum_k (1/(I-1)) (L_k - Lbar) D_k,   D_k[i][j] = +1/theta[i][j] if j was sampled at i in prompt k, else -1/theta[i][j]
 *   G   *= min(1, clip / (||G||_F + 1e-6))     (torch.nn.utils.clip_grad_norm_, torch 1.7.1 as BDPL's install.sh pins)
 * </pre>
 * Its expectation is E[G[i][j]] = 2 (E[L | prompt token i is j] - E[L]): a zero-probability candidate is never
 * sampled and its -1/theta terms cancel ( sum_k (L_k - Lbar) = 0 ).
 *
 * <p>theta = 0: BDPL does not guard it. It computes -1/0 = -inf (run_glue_discrete_LM.py:612), the products with
 * (L_k - Lbar) of both signs sum to NaN, and clip_grad_norm_ and AdamW (:621-622) then spread NaN over the whole
 * prompt; the simplex projection (:623) clamps entries to exactly 0 routinely, so a long BDPL run can reach it. We use
 * that entry's exact value, 0 (the cancelling terms above), which leaves the rest of the step as BDPL computes it.
 */
public final class VrPge {
    /** Added to the norm before dividing, as torch.nn.utils.clip_grad_norm_ does. */
    static final double CLIP_EPSILON = 1e-6;

    private VrPge() {}

    /**
     * @param theta   n x N, the distribution the prompts were sampled from
     * @param samples [k][i]: the candidate index prompt k took at position i
     * @param losses  L_k, finite
     */
    public static double[][] gradient(double[][] theta, int[][] samples, double[] losses) {
        int count = losses.length;
        if (count < 2 || samples.length != count) {
            throw new IllegalArgumentException("need >= 2 samples with one loss each, had " + samples.length
                    + " samples and " + count + " losses");
        }
        int n = theta.length;
        double sum = 0;
        for (double loss : losses) {
            sum += loss; // Python's sum(loss_list), left to right
        }
        double mean = sum / count;
        double[][] inverse = new double[n][];
        double[][] g = new double[n][];
        for (int i = 0; i < n; i++) {
            inverse[i] = new double[theta[i].length];
            g[i] = new double[theta[i].length];
            for (int j = 0; j < theta[i].length; j++) {
                inverse[i][j] = theta[i][j] > 0 ? 1 / theta[i][j] : 0; // theta = 0: see the class comment
            }
        }
        for (int k = 0; k < count; k++) {
            if (samples[k].length != n) {
                throw new IllegalArgumentException("sample " + k + " has " + samples[k].length + " positions, theta "
                        + n);
            }
            double c = 1.0 / (count - 1) * (losses[k] - mean); // 1 / (args.sample_size - 1) * (loss_list[k] - loss_avg)
            for (int i = 0; i < n; i++) {
                double[] row = g[i];
                double[] inv = inverse[i];
                int sampled = samples[k][i];
                for (int j = 0; j < row.length; j++) {
                    row[j] += c * (j == sampled ? inv[j] : -inv[j]);
                }
            }
        }
        return g;
    }

    /** Scales g in place to Frobenius norm at most about {@code maxNorm}; returns the norm before clipping. */
    public static double clip(double[][] g, double maxNorm) {
        double squares = 0;
        for (double[] row : g) {
            for (double x : row) {
                squares += x * x;
            }
        }
        double norm = Math.sqrt(squares);
        double coefficient = maxNorm / (norm + CLIP_EPSILON);
        if (coefficient < 1) {
            for (double[] row : g) {
                for (int j = 0; j < row.length; j++) {
                    row[j] *= coefficient;
                }
            }
        }
        return norm;
    }

    /** Whether every entry is finite. */
    static boolean finite(double[][] g) {
        for (double[] row : g) {
            for (double x : row) {
                if (!Double.isFinite(x)) {
                    return false;
                }
            }
        }
        return true;
    }
}
