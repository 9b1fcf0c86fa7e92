package dev.fedbpt.engine.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * Splits a training set over federated clients: IID, stratified by class, or label-skewed (Dirichlet, or FedPepTAO's
 * Dirichlet priors per client), as in the papers' experiments. Every client receives at least one example, and each
 * client's examples are listed in input order so that the result depends only on which examples were assigned, not on
 * the order of the draws.
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
     * FedPepTAO's label-skewed split ({@link DirichletLabel}) of {@code examples}, drawn afresh from {@code rng}.
     *
     * @throws IllegalArgumentException if there are more clients than examples, alpha is not positive and finite, a
     *                                  label is outside 0..numClasses-1, or the split cannot be completed (see
     *                                  {@link DirichletLabel#split})
     */
    public static List<List<Example>> dirichletLabel(List<Example> examples, int clients, double alpha,
                                                     int numClasses, RandomGenerator rng) {
        return DirichletLabel.draw(clients, alpha, numClasses, rng).split(examples);
    }

    /**
     * FedPepTAO's {@code dirichlet_label} split (its reference code's data/partition.py): client sizes and each
     * client's class mix are drawn separately. A client's share of the examples is q ~ Dir(5, ..., 5) over the
     * clients (5 as the code writes it, not alpha: sizes vary moderately whatever the label skew), and its class priors
     * are p ~ Dir(alpha, ..., alpha) over the classes. Examples are then placed one at a time: a client drawn
     * uniformly among those whose quota is not full, a class drawn from its priors among the classes with examples
     * left, and that class's highest-index remaining example given to it (classes are consumed from the end, not
     * shuffled). A client's realised mix drifts from its priors once its favourite classes run out.
     *
     * <p>The shares and priors are drawn once; each {@link #split} continues the same generator, so that the reference
     * code's second split, a personalised client's test rows (its dev shards), follows the training split with the
     * same shares and the same priors. Our draws come from the experiment's own streams ({@code Rng}), not numpy's
     * RandomState (Mersenne Twister with numpy's own Gamma and integer algorithms), which we do not reproduce: the
     * partitions follow the same law as the reference's but are not its partitions for the same seed.
     */
    public static final class DirichletLabel {
        /** The concentration of the client shares, fixed in the reference code whatever {@code alpha} is. */
        static final double SHARE_CONCENTRATION = 5.0;

        private final double[] shares;
        private final double[][] classPriors;
        private final RandomGenerator rng;

        DirichletLabel(double[] shares, double[][] classPriors, RandomGenerator rng) {
            this.shares = shares;
            this.classPriors = classPriors;
            this.rng = rng;
        }

        /**
         * Draws the client shares, then every client's class priors (client by client), from {@code rng}.
         *
         * @throws IllegalArgumentException if clients or numClasses is below 1, or alpha is not positive and finite
         */
        public static DirichletLabel draw(int clients, double alpha, int numClasses, RandomGenerator rng) {
            Objects.requireNonNull(rng, "rng");
            if (clients < 1) {
                throw new IllegalArgumentException("number of clients must be >= 1 but was " + clients);
            }
            if (numClasses < 1) {
                throw new IllegalArgumentException("numClasses must be >= 1 but was " + numClasses);
            }
            if (!(alpha > 0) || Double.isInfinite(alpha)) {
                throw new IllegalArgumentException("Dirichlet alpha must be positive and finite but was " + alpha);
            }
            double[] shares = dirichletDraw(new GammaDistribution(rng, SHARE_CONCENTRATION, 1.0), clients, rng);
            GammaDistribution classGamma = new GammaDistribution(rng, alpha, 1.0);
            double[][] priors = new double[clients][];
            for (int k = 0; k < clients; k++) {
                priors[k] = dirichletDraw(classGamma, numClasses, rng);
            }
            return new DirichletLabel(shares, priors, rng);
        }

        /**
         * Places every one of {@code examples} as the class comment says, continuing the generator.
         *
         * @throws IllegalArgumentException if there are more clients than examples, a label is outside the classes,
         *                                  a client's rounded share is no example (the reference code asserts
         *                                  against it), or a client's priors give no weight to every class left
         */
        public List<List<Example>> split(List<Example> examples) {
            check(examples, shares.length, rng);
            int[] quotas = quotas(examples.size());
            List<List<Integer>> pools = byClass(examples, classPriors[0].length);
            int[] left = pools.stream().mapToInt(List::size).toArray();
            List<List<Integer>> assigned = emptyClients(shares.length);
            for (int placed = 0; placed < examples.size(); placed++) {
                int client = clientWithRoom(quotas);
                quotas[client]--;
                int c = classWithExamplesLeft(client, left);
                left[c]--;
                assigned.get(client).add(pools.get(c).get(left[c]));
            }
            return materialize(examples, assigned);
        }

        /**
         * Each client's quota of {@code n} examples: its share times n rounded half to even (numpy's round), the
         * whole rounding error put on the last client, as the reference code does.
         */
        int[] quotas(int n) {
            int[] quotas = new int[shares.length];
            int total = 0;
            for (int k = 0; k < shares.length; k++) {
                quotas[k] = (int) Math.rint(shares[k] * n);
                total += quotas[k];
            }
            quotas[shares.length - 1] -= total - n;
            for (int k = 0; k < shares.length; k++) {
                if (quotas[k] <= 0) {
                    throw new IllegalArgumentException(String.format(Locale.ROOT, "client %d of %d would get %d of "
                            + "%d examples (its Dir(5) share is %.3g): every client needs at least one; use fewer "
                            + "clients or more examples", k, shares.length, quotas[k], n, shares[k]));
                }
            }
            return quotas;
        }

        /** Client {@code client}'s class priors. */
        double[] classPriors(int client) {
            return classPriors[client].clone();
        }

        /** A client drawn uniformly, redrawn while its quota is full (at least one has room while examples remain). */
        private int clientWithRoom(int[] quotas) {
            while (true) {
                int k = rng.nextInt(quotas.length);
                if (quotas[k] > 0) {
                    return k;
                }
            }
        }

        /**
         * A class drawn from {@code client}'s priors among the classes with examples left, by inverse CDF over their
         * weights. The reference draws from all classes and redraws an exhausted one; this is the same law in one
         * draw, and it cannot spin (near) for ever on a client whose priors (near) vanish on the classes left.
         */
        private int classWithExamplesLeft(int client, int[] left) {
            double[] prior = classPriors[client];
            double weightLeft = 0;
            int lastWithWeight = -1;
            for (int c = 0; c < prior.length; c++) {
                if (left[c] > 0 && prior[c] > 0) {
                    weightLeft += prior[c];
                    lastWithWeight = c;
                }
            }
            if (lastWithWeight < 0) {
                throw new IllegalArgumentException("client " + client + "'s class priors give no weight to any class "
                        + "with examples left, so its quota can never be filled; use a larger Dirichlet alpha");
            }
            double u = rng.nextDouble() * weightLeft;
            double cumulative = 0;
            for (int c = 0; c < lastWithWeight; c++) {
                if (left[c] > 0) {
                    cumulative += prior[c];
                    if (u < cumulative) {
                        return c;
                    }
                }
            }
            // Rounding can leave u at or past the last partial sum: the last class with weight takes it.
            return lastWithWeight;
        }
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
