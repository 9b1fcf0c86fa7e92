package dev.fedbpt.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.math3.random.MersenneTwister;
import org.apache.commons.math3.random.Well19937c;
import org.junit.jupiter.api.Test;

class PartitionerTest {
    static List<Example> balanced(int perClass, int classes) {
        List<Example> ex = new ArrayList<>();
        for (int i = 0; i < perClass; i++) {
            for (int c = 0; c < classes; c++) {
                ex.add(new Example("t" + c + "-" + i, c));
            }
        }
        return ex;
    }

    private static void isPartition(List<Example> all, List<List<Example>> parts, int clients) {
        assertEquals(clients, parts.size());
        Set<Example> seen = new HashSet<>();
        for (List<Example> p : parts) {
            assertFalse(p.isEmpty(), "every client gets data");
            for (Example e : p) {
                assertTrue(seen.add(e), "no example twice");
            }
            int last = -1;
            for (Example e : p) {
                int at = all.indexOf(e);
                assertTrue(at > last, "input order kept within a client");
                last = at;
            }
        }
        assertEquals(new HashSet<>(all), seen);
    }

    @Test
    void stratifiedGivesEveryClientTheSameCountOfEachClass() {
        List<Example> all = balanced(40, 2); // Fed-BBPT: 5 clients of 8 per class
        List<List<Example>> parts = Partitioner.stratified(all, 5, 2, new MersenneTwister(11));
        isPartition(all, parts, 5);
        for (List<Example> p : parts) {
            assertEquals(8, p.stream().filter(e -> e.label() == 0).count(), p.toString());
            assertEquals(8, p.stream().filter(e -> e.label() == 1).count(), p.toString());
        }
        assertEquals(parts, Partitioner.stratified(all, 5, 2, new MersenneTwister(11)));
        assertNotEquals(parts, Partitioner.stratified(all, 5, 2, new MersenneTwister(12)));
        // An IID cut of the same rows leaves some client off 8 / 8: what the stratified deal is for.
        assertTrue(Partitioner.iid(all, 5, new MersenneTwister(11)).stream()
                .anyMatch(p -> p.stream().filter(e -> e.label() == 0).count() != 8));

        // Uneven: 7 of class 0 and 4 of class 1 over 3 clients; per class, and in total, within one of each other.
        List<Example> uneven = new ArrayList<>(balanced(4, 2));
        for (int i = 0; i < 3; i++) uneven.add(new Example("extra" + i, 0));
        List<List<Example>> unevenParts = Partitioner.stratified(uneven, 3, 2, new MersenneTwister(3));
        isPartition(uneven, unevenParts, 3);
        for (int c = 0; c < 2; c++) {
            int label = c;
            List<Long> counts = unevenParts.stream().map(p -> p.stream().filter(e -> e.label() == label).count())
                    .toList();
            assertTrue(counts.stream().mapToLong(Long::longValue).max().getAsLong()
                    - counts.stream().mapToLong(Long::longValue).min().getAsLong() <= 1, counts.toString());
        }
        List<Integer> sizes = unevenParts.stream().map(List::size).toList();
        assertTrue(sizes.stream().mapToInt(Integer::intValue).max().getAsInt()
                - sizes.stream().mapToInt(Integer::intValue).min().getAsInt() <= 1, sizes.toString());
        assertThrows(IllegalArgumentException.class,
                () -> Partitioner.stratified(List.of(new Example("x", 2)), 1, 2, new MersenneTwister(1)));
    }

    @Test
    void iidIsBalancedAndDeterministic() {
        List<Example> all = balanced(40, 2); // FedBPT: 40 per class, 10 clients
        List<List<Example>> parts = Partitioner.iid(all, 10, new MersenneTwister(11));
        isPartition(all, parts, 10);
        for (List<Example> p : parts) {
            assertEquals(8, p.size());
        }
        assertEquals(parts, Partitioner.iid(all, 10, new MersenneTwister(11)));
        assertNotEquals(parts, Partitioner.iid(all, 10, new MersenneTwister(12)));

        List<List<Example>> uneven = Partitioner.iid(balanced(23, 1), 5, new MersenneTwister(1));
        assertEquals(List.of(5, 5, 5, 4, 4), uneven.stream().map(List::size).toList());
    }

    @Test
    void dirichletIsAPartitionAndDeterministic() {
        List<Example> all = balanced(40, 4);
        List<List<Example>> parts = Partitioner.dirichlet(all, 10, 1.0, 4, new Well19937c(3));
        isPartition(all, parts, 10);
        assertEquals(parts, Partitioner.dirichlet(all, 10, 1.0, 4, new Well19937c(3)));
        assertNotEquals(parts, Partitioner.dirichlet(all, 10, 1.0, 4, new Well19937c(4)));
    }

    /** Mean over clients of the share of the client's most common label. */
    private static double meanMajorityShare(List<List<Example>> parts, int classes) {
        double sum = 0;
        for (List<Example> p : parts) {
            int[] counts = new int[classes];
            p.forEach(e -> counts[e.label()]++);
            int max = 0;
            for (int c : counts) {
                max = Math.max(max, c);
            }
            sum += (double) max / p.size();
        }
        return sum / parts.size();
    }

    @Test
    void smallAlphaIsSkewedLargeAlphaIsNot() {
        List<Example> all = balanced(500, 2);
        double skewed = meanMajorityShare(Partitioner.dirichlet(all, 10, 0.05, 2, new Well19937c(1)), 2);
        double mixed = meanMajorityShare(Partitioner.dirichlet(all, 10, 1000, 2, new Well19937c(1)), 2);
        assertTrue(skewed > 0.9, "alpha 0.05 should give nearly single-label clients: " + skewed);
        assertTrue(mixed < 0.6, "alpha 1000 should be close to IID: " + mixed);
    }

    @Test
    void emptyClientsAreRepaired() {
        // Tiny alpha puts each class on (almost) one client, so most of 6 clients start empty.
        List<Example> all = balanced(5, 2);
        for (int seed = 0; seed < 20; seed++) {
            isPartition(all, Partitioner.dirichlet(all, 6, 1e-3, 2, new Well19937c(seed)), 6);
        }
        // As many clients as examples: each gets exactly one.
        List<List<Example>> one = Partitioner.dirichlet(all, 10, 1e-3, 2, new Well19937c(9));
        isPartition(all, one, 10);
        one.forEach(p -> assertEquals(1, p.size()));
    }

    @Test
    void rejectsBadArguments() {
        List<Example> all = balanced(2, 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Partitioner.iid(all, 5, new MersenneTwister(1)));
        assertTrue(e.getMessage().contains("5 clients") && e.getMessage().contains("only 4 examples"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Partitioner.dirichlet(all, 5, 1, 2, new MersenneTwister(1)));
        assertThrows(IllegalArgumentException.class, () -> Partitioner.iid(all, 0, new MersenneTwister(1)));
        assertThrows(IllegalArgumentException.class, () -> Partitioner.dirichlet(all, 2, 0, 2, new MersenneTwister(1)));
        assertThrows(IllegalArgumentException.class,
                () -> Partitioner.dirichlet(all, 2, Double.NaN, 2, new MersenneTwister(1)));
        assertThrows(IllegalArgumentException.class, () -> Partitioner.dirichlet(all, 2, 1, 1, new MersenneTwister(1)));
    }

    @Test
    void testRowsFollowEachClientsTrainingLabelSkew() {
        List<List<Example>> training = Partitioner.dirichlet(balanced(40, 2), 4, 0.4, 2, new Well19937c(3));
        List<Example> test = balanced(500, 2);
        List<List<Example>> tests = Partitioner.likeTraining(test, training, 2, new Well19937c(4));
        isPartition(test, tests, 4);
        for (int k = 0; k < 4; k++) {
            for (int c = 0; c < 2; c++) {
                int cls = c;
                double trainShare = training.get(k).stream().filter(e -> e.label() == cls).count() / 40.0;
                double testShare = tests.get(k).stream().filter(e -> e.label() == cls).count() / 500.0;
                assertEquals(trainShare, testShare, 1.0 / 500 + 1e-9,
                        "client " + k + "'s share of class " + c + " in its test rows is its share in training");
            }
        }
    }
}
