package dev.fedbpt.engine.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * Splits a training set over federated clients: IID, stratified by class, or label-skewed (Dirichlet), as in the
 * papers' experiments. Every client receives at least one example, and each client's examples are listed in input
 * order so that the result depends only on which examples were assigned, not on the order of the draws.
 */
public final class Partitioner {
    private Partitioner() {
    }

    /**
     * Random even split: a random permutation cut into {@code clients} consecutive pieces whose sizes differ by at
     * most one (the first {@code n % clients} clients get the extra example).
     */
    public static List<List<Example>> iid(List<Example> examples, int clients, RandomGenerator rng) {
        check(examples, clients, rng);
        int n = examples.size();
        int[] perm = Shuffle.permutation(n, rng);
        List<List<Integer>> assigned = new ArrayList<>();
        int base = n / clients;
        int extra = n % clients;
        int at = 0;
        for (int k = 0; k < clients; k++) {
            int size = base + (k < extra ? 1 : 0);
            List<Integer> client = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                client.add(perm[at++]);
            }
            assigned.add(client);
        }
        return materialize(examples, assigned);
    }

    /**
     * Stratified split: every client gets the same number of examples of each class, up to one (a few-shot set of
     * k per class over K clients gives each client k / K of every class, as Fed-BBPT's clients hold 8 per class).
     * Each class's examples, in class order, are shuffled and dealt out one at a time to the clients in turn; the
     * deal goes on where the previous class stopped, so the clients' sizes also differ by at most one.
     *
     * @throws IllegalArgumentException if there are more clients than examples or a label is outside
     *                                  0..numClasses-1
     */
    public static List<List<Example>> stratified(List<Example> examples, int clients, int numClasses,
                                                 RandomGenerator rng) {
        check(examples, clients, rng);
        List<List<Integer>> assigned = emptyClients(clients);
        int next = 0;
        for (List<Integer> members : byClass(examples, numClasses)) {
            int[] idx = members.stream().mapToInt(Integer::intValue).toArray();
            Shuffle.shuffle(idx, rng);
            for (int i : idx) {
                assigned.get(next).add(i);
                next = (next + 1) % clients;
            }
        }
        return materialize(examples, assigned);
    }

    /**
     * Label-skewed split: for each class c = 0..numClasses-1 in turn, draw client proportions p ~ Dir(alpha) (as
     * normalized Gamma(alpha, 1) draws, one per client), shuffle that class's examples and cut them at the cumulative
     * proportions, client 0 first. Small alpha concentrates each class on few clients; large alpha approaches IID.
     * Proportions are drawn for every class, even an empty one, so that the generator stream does not depend on the
     * label counts. A client left empty is then given one example taken from the end of the currently largest client
     * (lowest index on ties), repeated until no client is empty.
     *
     * @throws IllegalArgumentException if there are more clients than examples, alpha is not positive and finite, or
     *                                  a label is outside 0..numClasses-1
     */
    public static List<List<Example>> dirichlet(List<Example> examples, int clients, double alpha, int numClasses,
                                                RandomGenerator rng) {
        check(examples, clients, rng);
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("Dirichlet alpha must be positive and finite but was " + alpha);
        }
        List<List<Integer>> byClass = byClass(examples, numClasses);
        List<List<Integer>> assigned = emptyClients(clients);
        GammaDistribution gamma = new GammaDistribution(rng, alpha, 1.0);
        for (List<Integer> members : byClass) {
            double[] p = dirichletDraw(gamma, clients, rng);
            int[] idx = members.stream().mapToInt(Integer::intValue).toArray();
            Shuffle.shuffle(idx, rng);
            int n = idx.length;
            double cumulative = 0;
            int start = 0;
            for (int k = 0; k < clients; k++) {
                cumulative += p[k];
                int end = k == clients - 1 ? n : Math.min(n, Math.max(start, (int) Math.floor(cumulative * n)));
                for (int i = start; i < end; i++) {
                    assigned.get(k).add(idx[i]);
                }
                start = end;
            }
        }
        repairEmpty(assigned);
        return materialize(examples, assigned);
    }

    /**
     * Splits {@code test} over the clients of {@code training} so that each client's share of every class is its
     * share of that class in its training data: a personalised client's test rows then follow its own label skew, as
     * a client's data split locally into train and test would. Class c's test examples are shuffled and cut at the
     * cumulative shares (equal shares when no client trains on c); clients left empty get one example as in
     * {@link #dirichlet}.
     */
    public static List<List<Example>> likeTraining(List<Example> test, List<List<Example>> training, int numClasses,
                                                   RandomGenerator rng) {
        int clients = training.size();
        check(test, clients, rng);
        double[][] counts = new double[numClasses][clients];
        for (int k = 0; k < clients; k++) {
            for (Example e : training.get(k)) {
                counts[e.label()][k]++;
            }
        }
        List<List<Integer>> byClass = byClass(test, numClasses);
        List<List<Integer>> assigned = emptyClients(clients);
        for (int c = 0; c < numClasses; c++) {
            double total = Arrays.stream(counts[c]).sum();
            int[] idx = byClass.get(c).stream().mapToInt(Integer::intValue).toArray();
            Shuffle.shuffle(idx, rng);
            int n = idx.length;
            double cumulative = 0;
            int start = 0;
            for (int k = 0; k < clients; k++) {
                cumulative += total > 0 ? counts[c][k] / total : 1.0 / clients;
                int end = k == clients - 1 ? n : Math.min(n, Math.max(start, (int) Math.floor(cumulative * n)));
                for (int i = start; i < end; i++) {
                    assigned.get(k).add(idx[i]);
                }
                start = end;
            }
        }
        repairEmpty(assigned);
        return materialize(test, assigned);
    }

    /** The indices of each class's examples, in input order. */
    private static List<List<Integer>> byClass(List<Example> examples, int numClasses) {
        if (numClasses < 1) {
            throw new IllegalArgumentException("numClasses must be >= 1 but was " + numClasses);
        }
        List<List<Integer>> byClass = new ArrayList<>();
        for (int c = 0; c < numClasses; c++) {
            byClass.add(new ArrayList<>());
        }
        for (int i = 0; i < examples.size(); i++) {
            int label = examples.get(i).label();
            if (label < 0 || label >= numClasses) {
                throw new IllegalArgumentException("example " + i + " has label " + label
                        + " but numClasses is " + numClasses);
            }
            byClass.get(label).add(i);
        }
        return byClass;
    }

    private static List<List<Integer>> emptyClients(int clients) {
        List<List<Integer>> assigned = new ArrayList<>(clients);
        for (int k = 0; k < clients; k++) {
            assigned.add(new ArrayList<>());
        }
        return assigned;
    }

    private static double[] dirichletDraw(GammaDistribution gamma, int clients, RandomGenerator rng) {
        double[] p = new double[clients];
        double sum = 0;
        for (int k = 0; k < clients; k++) {
            p[k] = gamma.sample();
            sum += p[k];
        }
        if (!(sum > 0) || Double.isInfinite(sum)) {
            // With a tiny alpha every Gamma draw can underflow to 0; the limit of Dir(alpha) as alpha -> 0 puts all
            // mass on one uniformly chosen client, so do exactly that.
            Arrays.fill(p, 0);
            p[rng.nextInt(clients)] = 1;
            return p;
        }
        for (int k = 0; k < clients; k++) {
            p[k] /= sum;
        }
        return p;
    }

    private static void repairEmpty(List<List<Integer>> assigned) {
        for (int k = 0; k < assigned.size(); k++) {
            if (!assigned.get(k).isEmpty()) {
                continue;
            }
            int largest = 0;
            for (int j = 1; j < assigned.size(); j++) {
                if (assigned.get(j).size() > assigned.get(largest).size()) {
                    largest = j;
                }
            }
            // clients <= examples guarantees the largest client holds at least 2 while another is empty.
            List<Integer> donor = assigned.get(largest);
            assigned.get(k).add(donor.remove(donor.size() - 1));
        }
    }

    private static void check(List<Example> examples, int clients, RandomGenerator rng) {
        Objects.requireNonNull(examples, "examples");
        Objects.requireNonNull(rng, "rng");
        if (clients < 1) {
            throw new IllegalArgumentException("number of clients must be >= 1 but was " + clients);
        }
        if (clients > examples.size()) {
            throw new IllegalArgumentException("cannot give each of " + clients + " clients at least one example: only "
                    + examples.size() + " examples");
        }
    }

    private static List<List<Example>> materialize(List<Example> examples, List<List<Integer>> assigned) {
        List<List<Example>> result = new ArrayList<>(assigned.size());
        for (List<Integer> client : assigned) {
            int[] sorted = client.stream().mapToInt(Integer::intValue).toArray();
            Arrays.sort(sorted);
            List<Example> list = new ArrayList<>(sorted.length);
            for (int i : sorted) {
                list.add(examples.get(i));
            }
            result.add(List.copyOf(list));
        }
        return List.copyOf(result);
    }
}
