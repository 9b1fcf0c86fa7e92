package dev.fedbpt.engine.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import org.apache.commons.math3.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class RngTest {
    private static double[] draw(RandomGenerator r) {
        double[] v = new double[50];
        for (int i = 0; i < v.length; i++) {
            v[i] = i % 2 == 0 ? r.nextGaussian() : r.nextDouble();
        }
        return v;
    }

    @Test
    void sameInputsGiveBitIdenticalStreams() {
        assertArrayEquals(draw(Rng.of(42, Purpose.CLIENT_CMAES, 3, 1, 7)), draw(Rng.of(42, Purpose.CLIENT_CMAES, 3, 1, 7)));
    }

    @Test
    void anyDifferentInputGivesAnotherStream() {
        double[] base = draw(Rng.of(42, Purpose.CLIENT_CMAES, 3, 1, 7));
        assertFalse(Arrays.equals(base, draw(Rng.of(43, Purpose.CLIENT_CMAES, 3, 1, 7))));
        assertFalse(Arrays.equals(base, draw(Rng.of(42, Purpose.PERTURBATION, 3, 1, 7))));
        assertFalse(Arrays.equals(base, draw(Rng.of(42, Purpose.CLIENT_CMAES, 3, 7, 1))));
        assertFalse(Arrays.equals(base, draw(Rng.of(42, Purpose.CLIENT_CMAES, 3, 1, 7, 0))));
        assertFalse(Arrays.equals(draw(Rng.of(42, Purpose.PROBE)), draw(Rng.of(42, Purpose.PROBE, 0))));
    }
}
