package dev.fedbpt.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.math3.random.MersenneTwister;
import org.junit.jupiter.api.Test;

class FewShotTest {
    /** 3 classes with 50, 30 and 5 examples, interleaved; texts are unique. */
    static Dataset data() {
        List<Example> ex = new ArrayList<>();
        int[] sizes = {50, 30, 5};
        for (int i = 0; i < 50; i++) {
            for (int c = 0; c < 3; c++) {
                if (i < sizes[c]) {
                    ex.add(new Example("c" + c + "-" + i, c));
                }
            }
        }
        return new Dataset("toy", ex, List.of("a", "b", "c"));
    }

    @Test
    void kPerClassAllIfFewerAndInDatasetOrder() {
        Dataset d = data();
        Dataset s = FewShot.sample(d, 8, new MersenneTwister(1));
        assertArrayEquals(new int[] {8, 8, 5}, s.labelCounts());
        assertEquals(d.labelNames(), s.labelNames());
        List<Example> all = d.examples();
        int last = -1;
        for (Example e : s.examples()) {
            int at = all.indexOf(e);
            assertTrue(at > last, "dataset order kept");
            last = at;
        }
    }

    @Test
    void deterministicAndSeedDependent() {
        Dataset d = data();
        assertEquals(FewShot.sample(d, 8, new MersenneTwister(7)), FewShot.sample(d, 8, new MersenneTwister(7)));
        assertNotEquals(FewShot.sample(d, 8, new MersenneTwister(7)).examples(),
                FewShot.sample(d, 8, new MersenneTwister(8)).examples());
    }

    @Test
    void largerKExtendsSmallerK() {
        Dataset d = data();
        Set<Example> small = new HashSet<>(FewShot.sample(d, 4, new MersenneTwister(3)).examples());
        Set<Example> large = new HashSet<>(FewShot.sample(d, 16, new MersenneTwister(3)).examples());
        assertTrue(large.containsAll(small));
    }

    @Test
    void trainDevDisjointAndTrainEqualsSample() {
        Dataset d = data();
        FewShot.TrainDev split = FewShot.trainDev(d, 8, 10, new MersenneTwister(5));
        assertEquals(FewShot.sample(d, 8, new MersenneTwister(5)).examples(), split.train().examples());
        assertArrayEquals(new int[] {10, 10, 0}, split.dev().labelCounts());
        Set<Example> train = new HashSet<>(split.train().examples());
        for (Example e : split.dev().examples()) {
            assertTrue(!train.contains(e), "dev must not overlap train: " + e);
        }
    }

    @Test
    void rejectsNegativeK() {
        assertThrows(IllegalArgumentException.class, () -> FewShot.sample(data(), -1, new MersenneTwister(1)));
    }
}
