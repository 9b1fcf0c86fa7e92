package dev.fedbpt.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.math3.random.AbstractRandomGenerator;
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

    @Test
    void dirichletLabelIsAPartitionAndDeterministic() {
        List<Example> all = balanced(40, 4);
        List<List<Example>> parts = Partitioner.dirichletLabel(all, 10, 1.0, 4, new Well19937c(3));
        isPartition(all, parts, 10);
        assertEquals(160, parts.stream().mapToInt(List::size).sum());
        assertEquals(parts, Partitioner.dirichletLabel(all, 10, 1.0, 4, new Well19937c(3)));
        assertNotEquals(parts, Partitioner.dirichletLabel(all, 10, 1.0, 4, new Well19937c(4)));
        // Sizes come from Dir(5), not from an even cut: they differ between clients.
        assertTrue(parts.stream().mapToInt(List::size).distinct().count() > 1, parts.toString());
    }

    @Test
    void dirichletLabelFollowsEachClientsPriors() {
        List<Example> all = balanced(200, 4);
        double skewed = 0;
        double mixed = 0;
        int agreeing = 0;
        int seeds = 10;
        for (int seed = 0; seed < seeds; seed++) {
            Partitioner.DirichletLabel split = Partitioner.DirichletLabel.draw(10, 0.05, 4, new Well19937c(seed));
            List<List<Example>> parts = split.split(all);
            isPartition(all, parts, 10);
            skewed += meanMajorityShare(parts, 4) / seeds;
            agreeing += clientsWhoseMostCommonClassIsTheirFavourite(parts, split, 4);
            mixed += meanMajorityShare(Partitioner.dirichletLabel(all, 10, 1000, 4, new Well19937c(seed)), 4) / seeds;
        }
        // A client's mix drifts from its priors once its favourite class runs out, so the bounds leave room (over
        // 200 seeds, ten at a time, the worst were 0.72, 0.32 and 79%).
        assertTrue(skewed > 0.65, "alpha 0.05 should give clients dominated by one class: " + skewed);
        assertTrue(mixed < 0.4, "alpha 1000 should be close to uniform over the 4 classes: " + mixed);
        assertTrue(agreeing >= 0.7 * 10 * seeds, agreeing + " of " + 10 * seeds + " clients hold most of the class "
                + "their priors favour");
    }

    private static int clientsWhoseMostCommonClassIsTheirFavourite(List<List<Example>> parts,
                                                                   Partitioner.DirichletLabel split, int classes) {
        int agreeing = 0;
        for (int k = 0; k < parts.size(); k++) {
            int[] counts = new int[classes];
            parts.get(k).forEach(e -> counts[e.label()]++);
            if (argmax(Arrays.stream(counts).asDoubleStream().toArray()) == argmax(split.classPriors(k))) {
                agreeing++;
            }
        }
        return agreeing;
    }

    private static int argmax(double[] values) {
        int best = 0;
        for (int i = 1; i < values.length; i++) {
            if (values[i] > values[best]) {
                best = i;
            }
        }
        return best;
    }

    @Test
    void dirichletLabelQuotasRoundHalfToEvenWithTheErrorOnTheLastClient() {
        Partitioner.DirichletLabel split = new Partitioner.DirichletLabel(new double[] {0.25, 0.25, 0.5},
                new double[][] {{1}, {1}, {1}}, new Well19937c(1));
        // 2.5 and 2.5 round to 2 (numpy's round, not Math.round's 3); the last client takes 5 + 1.
        assertArrayEquals(new int[] {2, 2, 6}, split.quotas(10));
        assertEquals(List.of(2, 2, 6), split.split(balanced(10, 1)).stream().map(List::size).toList());
    }

    /** Scripted uniforms: nextInt(n) of AbstractRandomGenerator is (int) (nextDouble() * n). */
    private static final class Scripted extends AbstractRandomGenerator {
        private final double[] head;
        private final double rest;
        private int at;

        Scripted(double rest, double... head) {
            this.head = head;
            this.rest = rest;
        }

        @Override
        public double nextDouble() {
            return at < head.length ? head[at++] : rest;
        }

        @Override
        public void setSeed(long seed) {
        }
    }

    @Test
    void dirichletLabelTakesEachClassFromItsHighestIndexDown() {
        // 0..9 alternate classes 0 and 1. Client 0 (quota 3) wants only class 0 and is drawn first three times.
        List<Example> all = balanced(5, 2);
        Partitioner.DirichletLabel split = new Partitioner.DirichletLabel(new double[] {0.3, 0.7},
                new double[][] {{1, 0}, {0.5, 0.5}}, new Scripted(0.9, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1));
        List<List<Example>> parts = split.split(all);
        isPartition(all, parts, 2);
        assertEquals(List.of(all.get(4), all.get(6), all.get(8)), parts.get(0));
    }

    @Test
    void dirichletLabelRefusesASplitItCannotComplete() {
        // A share of 0.04 of 10 examples rounds to none: the reference code asserts against it.
        Partitioner.DirichletLabel tiny = new Partitioner.DirichletLabel(new double[] {0.04, 0.48, 0.48},
                new double[][] {{1}, {1}, {1}}, new Well19937c(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tiny.split(balanced(10, 1)));
        assertTrue(e.getMessage().contains("client 0 of 3 would get 0 of 10 examples"), e.getMessage());
        // Every client wants only class 0, so the class 1 examples can never be placed (the reference spins).
        Partitioner.DirichletLabel stuck = new Partitioner.DirichletLabel(new double[] {0.5, 0.5},
                new double[][] {{1, 0}, {1, 0}}, new Well19937c(1));
        e = assertThrows(IllegalArgumentException.class, () -> stuck.split(balanced(5, 2)));
        assertTrue(e.getMessage().contains("no weight to any class with examples left"), e.getMessage());
        // Many clients over few examples: some seed of the 40 leaves a client without any.
        assertTrue(java.util.stream.IntStream.range(0, 40).anyMatch(seed -> {
            try {
                Partitioner.dirichletLabel(balanced(15, 2), 20, 1.0, 2, new Well19937c(seed));
                return false;
            } catch (IllegalArgumentException tooFew) {
                return true;
            }
        }));
        assertThrows(IllegalArgumentException.class,
                () -> Partitioner.dirichletLabel(balanced(2, 2), 5, 1.0, 2, new Well19937c(1)));
        assertThrows(IllegalArgumentException.class,
                () -> Partitioner.dirichletLabel(balanced(5, 2), 2, 0, 2, new Well19937c(1)));
    }

    @Test
    void dirichletLabelSplitsTestRowsWithTheTrainingSharesAndPriors() {
        Partitioner.DirichletLabel split = Partitioner.DirichletLabel.draw(8, 0.1, 2, new Well19937c(5));
        List<Example> train = balanced(500, 2);
        List<List<Example>> training = split.split(train);
        List<Example> test = new ArrayList<>();
        train.forEach(e -> test.add(new Example("test " + e.inputs().get(0), e.label())));
        List<List<Example>> tests = split.split(test);
        isPartition(test, tests, 8);
        // The same shares of as many rows give the same sizes; the stream goes on, so the rows are dealt anew.
        assertEquals(training.stream().map(List::size).toList(), tests.stream().map(List::size).toList());
        // The same priors give each client about the same mix: over 200 seeds at most 12% of the rows moved, where
        // clients with other priors differ by 44% on average.
        double moved = 0;
        for (int k = 0; k < 8; k++) {
            long trainZeros = training.get(k).stream().filter(e -> e.label() == 0).count();
            long testZeros = tests.get(k).stream().filter(e -> e.label() == 0).count();
            moved += Math.abs(trainZeros - testZeros) / 1000.0;
        }
        assertTrue(moved < 0.2, "the clients' test rows follow their priors as their training rows do: " + moved);
    }
}
