package dev.fedbpt.engine.method;

import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.Arrays;
import org.apache.commons.math3.random.RandomGenerator;

/** Which clients take part in a round: max(1, round(fraction * population)) distinct ids, sorted. */
public final class ClientSampler {
    private ClientSampler() {
    }

    /** How many clients a round samples. */
    public static int size(int population, double fraction) {
        return Math.max(1, Math.min(population, (int) Math.round(fraction * population)));
    }

    /** attempt lets a caller redraw (e.g. after a dropout) without reusing the same stream. */
    public static int[] sample(long seed, int round, int attempt, int population, double fraction) {
        if (population < 1) {
            throw new IllegalArgumentException("population must be >= 1, was " + population);
        }
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("fraction must be in (0, 1], was " + fraction);
        }
        int m = size(population, fraction);
        int[] ids = new int[population];
        for (int i = 0; i < population; i++) {
            ids[i] = i;
        }
        if (m == population) {
            return ids; // everyone participates (the paper's setting); no draw needed
        }
        RandomGenerator rng = Rng.of(seed, Purpose.CLIENT_SAMPLING, round, attempt);
        for (int i = 0; i < m; i++) { // partial Fisher-Yates
            int j = i + rng.nextInt(population - i);
            int t = ids[i];
            ids[i] = ids[j];
            ids[j] = t;
        }
        int[] chosen = Arrays.copyOf(ids, m);
        Arrays.sort(chosen);
        return chosen;
    }
}
