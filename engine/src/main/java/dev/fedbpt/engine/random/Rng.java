package dev.fedbpt.engine.random;

import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;

/**
 * The single source of randomness: a stream is a pure function of (experiment seed, purpose, coordinates).
 * Independent streams per (round, client, iteration) make results independent of scheduling, so a
 * distributed run reproduces a local simulation bit for bit.
 */
public final class Rng {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private Rng() {
    }

    /** A fresh generator; the same arguments always give the same sequence (Well19937c is pure Java arithmetic). */
    public static RandomGenerator of(long experimentSeed, Purpose purpose, int... coordinates) {
        long h = hash(experimentSeed, purpose, coordinates);
        long h2 = mix(h + GOLDEN);
        return new Well19937c(new int[] {(int) (h >>> 32), (int) h, (int) (h2 >>> 32), (int) h2});
    }

    /**
     * One uniform draw in [0, 1), a pure function of its arguments: cheaper than {@link #of} where a decision
     * needs a single number (e.g. whether a fault hits one scored row).
     */
    public static double uniform(long experimentSeed, Purpose purpose, int... coordinates) {
        return (hash(experimentSeed, purpose, coordinates) >>> 11) * 0x1.0p-53;
    }

    private static long hash(long experimentSeed, Purpose purpose, int... coordinates) {
        if (purpose == null) {
            throw new IllegalArgumentException("purpose must not be null");
        }
        if (coordinates == null) {
            throw new IllegalArgumentException("coordinates must not be null");
        }
        long h = mix(experimentSeed + GOLDEN);
        h = mix(h ^ ((purpose.ordinal() + 1L) * GOLDEN));
        // The length is mixed in so that (1) and (1, 0) are different streams.
        h = mix(h ^ (coordinates.length * 0xD6E8FEB86659FD93L));
        for (int c : coordinates) {
            h = mix(h + GOLDEN + (c & 0xFFFFFFFFL));
        }
        return h;
    }

    /** SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective avalanche mix of 64 bits. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
