package dev.fedbpt.engine.data;

import org.apache.commons.math3.random.RandomGenerator;

/**
 * Fisher-Yates shuffling written out here (rather than {@code MathArrays.shuffle}) so that the exact sequence of
 * generator calls, and therefore every sample and partition, is fixed by this code and cannot drift with a library
 * upgrade.
 */
public final class Shuffle {
    private Shuffle() {
    }

    /** Shuffles {@code a} in place: one {@code nextInt(i + 1)} call for i = length-1 down to 1. */
    public static void shuffle(int[] a, RandomGenerator rng) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    /** A uniformly random permutation of 0..n-1. */
    public static int[] permutation(int n, RandomGenerator rng) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        shuffle(p, rng);
        return p;
    }
}
