package dev.fedbpt.inference;

import java.util.SplittableRandom;

/**
 * Standard normal deviates from a seed, identical on every JDK: {@link SplittableRandom}'s algorithm (SplitMix64) and
 * its {@code nextDouble()} are specified in its documentation and have not changed since Java 8, and the transform
 * is our own Marsaglia polar method (not {@code Random.nextGaussian}, whose algorithm changed in Java 17 for
 * {@code RandomGenerator}s). Each accepted pair (u, v) in the unit disc yields two deviates, u·f and v·f with
 * f = sqrt(-2 ln s / s), s = u² + v², consumed in that order.
 */
final class GaussianStream {
    private final SplittableRandom random;
    private double spare;
    private boolean hasSpare;

    GaussianStream(long seed) {
        this.random = new SplittableRandom(seed);
    }

    double next() {
        if (hasSpare) {
            hasSpare = false;
            return spare;
        }
        double u;
        double v;
        double s;
        do {
            u = 2.0 * random.nextDouble() - 1.0;
            v = 2.0 * random.nextDouble() - 1.0;
            s = u * u + v * v;
        } while (s >= 1.0 || s == 0.0);
        double f = Math.sqrt(-2.0 * StrictMath.log(s) / s);
        spare = v * f;
        hasSpare = true;
        return u * f;
    }
}
