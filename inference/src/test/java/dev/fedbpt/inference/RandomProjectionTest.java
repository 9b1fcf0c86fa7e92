package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class RandomProjectionTest {

    @Test
    void gaussianStreamIsPinned() {
        // pinned values: the stream must never change (server and clients regenerate A from the seed)
        GaussianStream g = new GaussianStream(42L);
        double[] first = {g.next(), g.next(), g.next(), g.next()};
        GaussianStream again = new GaussianStream(42L);
        for (double v : first) assertEquals(v, again.next());
        assertArrayEquals(PINNED_42, first, 0.0, java.util.Arrays.toString(first));
    }

    @Test
    void gaussianStreamMoments() {
        GaussianStream g = new GaussianStream(1L);
        int n = 200_000;
        double sum = 0;
        double sq = 0;
        for (int i = 0; i < n; i++) {
            double v = g.next();
            sum += v;
            sq += v * v;
        }
        assertEquals(0.0, sum / n, 0.01);
        assertEquals(1.0, sq / n, 0.01);
    }

    @Test
    void sameSeedSameMatrixOtherSeedOtherMatrix() {
        RandomProjection a = new RandomProjection(2, 8, 5, 7L, 0.1);
        RandomProjection b = new RandomProjection(2, 8, 5, 7L, 0.1);
        RandomProjection c = new RandomProjection(2, 8, 5, 8L, 0.1);
        boolean differs = false;
        for (int r = 0; r < 16; r++) {
            for (int j = 0; j < 5; j++) {
                assertEquals(a.entry(r, j), b.entry(r, j));
                differs |= a.entry(r, j) != c.entry(r, j);
            }
        }
        assertTrue(differs);
        assertEquals(0.1 / Math.sqrt(5), a.entryStd(), 1e-15);
    }

    @Test
    void expansionMatchesDoubleProductAndIsIndependentOfCompanions() {
        // large enough to take the parallel path
        RandomProjection a = new RandomProjection(20, 64, 1003, 3L, 0.05);
        GaussianStream g = new GaussianStream(4L);
        double[][] zs = new double[3][1003];
        for (double[] z : zs) for (int j = 0; j < z.length; j++) z[j] = g.next();
        float[][] together = a.expand(zs);
        for (int k = 0; k < zs.length; k++) {
            float[] alone = a.expand(new double[][] {zs[k]})[0];
            assertArrayEquals(alone, together[k]);
            for (int r = 0; r < a.rows(); r++) {
                double exact = 0;
                for (int j = 0; j < 1003; j++) exact += (double) a.entry(r, j) * (float) zs[k][j];
                assertEquals(exact, together[k][r], 1e-5);
            }
        }
    }

    static final double[] PINNED_42 = {0.49295065581737485, -0.6940056672160174, -1.2810773478777024, -0.901557193497174};
}
