package dev.fedbpt.engine.fedpeptao;

/**
 * FedPepTAO's keep ratio from a Hessian's eigenvalue density (get_ratio.py): the density PyHessian's
 * {@code _density_generate} smooths from Ritz values and weights (Gaussians on {@value #BINS} grid points between the
 * extreme Ritz values widened by 0.01, variance 1e-5 x max(1, that width), normalised to integrate to 1),
 * ratio(t) = 1 - the mass of the grid cells below t, and the code's search for the t where the ratio levels off.
 */
final class KeepRatio {
    static final int BINS = 10_000;
    private static final double SIGMA_SQUARED = 1e-5;
    private static final double OVERHEAD = 0.01;

    private final double[] grid;
    private final double[] density;

    /** One SLQ run's Ritz values and weights (the code's n_v = 1). */
    KeepRatio(double[] eigenvalues, double[] weights) {
        double max = Double.NEGATIVE_INFINITY;
        double min = Double.POSITIVE_INFINITY;
        for (double e : eigenvalues) {
            max = Math.max(max, e);
            min = Math.min(min, e);
        }
        max += OVERHEAD;
        min -= OVERHEAD;
        grid = linspace(min, max, BINS);
        double variance = SIGMA_SQUARED * Math.max(1, max - min);
        density = new double[BINS];
        double total = 0;
        for (int j = 0; j < BINS; j++) {
            double sum = 0;
            for (int k = 0; k < eigenvalues.length; k++) {
                double d = eigenvalues[k] - grid[j];
                sum += Math.exp(-d * d / (2.0 * variance)) / Math.sqrt(2 * Math.PI * variance) * weights[k];
            }
            density[j] = sum;
            total += sum;
        }
        double normalisation = total * (grid[1] - grid[0]);
        for (int j = 0; j < BINS; j++) density[j] /= normalisation;
    }

    /** numpy's linspace: start + i * step, the last point exactly {@code stop}. */
    private static double[] linspace(double start, double stop, int n) {
        double step = (stop - start) / (n - 1);
        double[] out = new double[n];
        for (int i = 0; i < n; i++) out[i] = i * step + start;
        out[n - 1] = stop;
        return out;
    }

    /** 1 - the density's mass in the cells [grid_i, grid_i+1] whose right end is at most {@code t}. */
    double ratio(double t) {
        double sum = 0;
        for (int i = 0; i < BINS - 1; i++) {
            if (grid[i + 1] <= t) sum += density[i] * (grid[i + 1] - grid[i]);
        }
        return 1 - sum;
    }

    /**
     * The code's search: from t = 0 in steps of 0.1, until four ratios in a row differ by less than 0.005 (the last
     * is the answer); whenever a ratio falls below half the first, again from 0 with half the step.
     */
    double search() {
        double inc = 0.1;
        while (true) {
            double t = 0.0;
            double first = Double.NaN;
            double[] last = new double[4];
            int count = 0;
            while (true) {
                double r = ratio(t);
                if (count == 0) first = r;
                last[count % 4] = r;
                count++;
                if (r < first / 2) break;
                if (count >= 4) {
                    double a = last[(count - 1) % 4];
                    double b = last[(count - 2) % 4];
                    double c = last[(count - 3) % 4];
                    double d = last[(count - 4) % 4];
                    if (Math.abs(a - b) < 0.005 && Math.abs(b - c) < 0.005 && Math.abs(c - d) < 0.005) return a;
                }
                t += inc;
            }
            inc /= 2;
        }
    }
}
