package dev.fedbpt.engine.method;

/** Loss functions over class scores (logits), shared by the methods that score prompts by their loss. */
public final class Losses {
    private Losses() {
    }

    /**
     * Mean over rows of -log softmax(scores[row])[label[row]], computed in double with log-sum-exp. Returns a
     * non-finite value when a score is non-finite; callers treat that as the worst fitness.
     */
    public static double meanCrossEntropy(float[][] scores, int[] labels, int numClasses) {
        if (scores == null || labels == null) {
            throw new IllegalArgumentException("scores and labels must not be null");
        }
        if (scores.length != labels.length) {
            throw new IllegalArgumentException("scores for " + scores.length + " rows but " + labels.length + " labels");
        }
        double total = 0;
        for (int r = 0; r < scores.length; r++) {
            float[] s = scores[r];
            if (s == null || s.length != numClasses) {
                throw new IllegalArgumentException("row " + r + " must have " + numClasses + " class scores, had "
                        + (s == null ? "null" : s.length));
            }
            double max = Double.NEGATIVE_INFINITY;
            for (float v : s) {
                max = Math.max(max, v);
            }
            double sum = 0;
            for (float v : s) {
                sum += Math.exp(v - max);
            }
            total += max + Math.log(sum) - s[labels[r]];
        }
        return total / scores.length;
    }
}
