package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.method.Prompt;

/** Fingerprints to compare runs bit for bit. */
public final class Digests {
    private Digests() {
    }

    /** Hex SHA-256 of the values as big-endian IEEE 754 doubles (the fingerprint of a continuous prompt). */
    public static String sha256(double[] values) {
        if (values == null) {
            throw new IllegalArgumentException("values must not be null");
        }
        return Prompt.Continuous.sha256(values);
    }

    /** Hex SHA-256 over mean, sigma, C (row-major), p_sigma, p_c and the generation (as a double). */
    public static String sha256(CmaesState s) {
        int d = s.dimension();
        double[] all = new double[d + 1 + d * d + 2 * d + 1];
        int k = 0;
        for (double v : s.mean()) {
            all[k++] = v;
        }
        all[k++] = s.sigma();
        for (double[] row : s.covariance()) {
            for (double v : row) {
                all[k++] = v;
            }
        }
        for (double v : s.pathSigma()) {
            all[k++] = v;
        }
        for (double v : s.pathC()) {
            all[k++] = v;
        }
        all[k] = s.generation();
        return sha256(all);
    }
}
