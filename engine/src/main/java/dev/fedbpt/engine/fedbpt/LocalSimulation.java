package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * The single synchronous reference of what a federated round computes: sample clients, run each client's
 * {@link ClientSearch} to completion against a {@link BatchScorer}, aggregate with the strategy. A distributed
 * implementation must reproduce its states bit for bit.
 */
public final class LocalSimulation {
    private LocalSimulation() {
    }

    public static SimulationResult run(SimulationConfig config, List<LocalData> clientData, Vocabulary vocabulary,
                                       BatchScorer scorer) {
        return run(config, clientData, vocabulary, scorer, false);
    }

    /**
     * @param shuffleClientOrder visit the sampled clients in a seeded random order (results must not change: every
     *                           client's randomness depends only on (seed, round, client, iteration))
     */
    public static SimulationResult run(SimulationConfig config, List<LocalData> clientData, Vocabulary vocabulary,
                                       BatchScorer scorer, boolean shuffleClientOrder) {
        if (config == null || clientData == null || vocabulary == null || scorer == null) {
            throw new IllegalArgumentException("config, clientData, vocabulary and scorer must not be null");
        }
        if (clientData.size() != config.clients()) {
            throw new IllegalArgumentException("config has " + config.clients() + " clients but data for "
                    + clientData.size());
        }
        GlobalState initial = config.strategy().initial(config.dimension(), config.sigma0());
        GlobalState state = initial;
        List<GlobalState> states = new ArrayList<>();
        double[] meanLoss = new double[config.rounds()];
        double[] sigma = new double[config.rounds()];
        int nonFinite = 0;
        for (int t = 0; t < config.rounds(); t++) {
            int[] sampled = ClientSampler.sample(config.seed(), t, 0, config.clients(), config.sampleFraction());
            if (shuffleClientOrder) {
                shuffle(sampled, Rng.of(config.seed(), Purpose.CLIENT_ORDER, t));
            }
            List<LocalResult> results = new ArrayList<>();
            for (int k : sampled) {
                ClientSearch search = new ClientSearch(state.cmaes(), config.search(), clientData.get(k),
                        vocabulary, config.seed(), t, k);
                results.add(runClient(search, scorer));
                nonFinite += search.nonFiniteCount();
            }
            state = config.strategy().aggregate(state, results);
            states.add(state);
            results.sort(Comparator.comparingInt(LocalResult::clientId));
            double sum = 0;
            for (LocalResult r : results) {
                sum += r.loss();
            }
            meanLoss[t] = sum / results.size();
            sigma[t] = state.cmaes().sigma();
        }
        return new SimulationResult(initial, states, meanLoss, sigma, nonFinite);
    }

    /** Drives one client's state machine to completion. */
    public static LocalResult runClient(ClientSearch search, BatchScorer scorer) {
        while (search.next() instanceof SearchStep.Evaluate step) {
            float[][][] clean = scoreAll(step.candidates(), step.cleanRows(), scorer);
            float[][][] perturbed = step.perturbedRows() == null ? null
                    : scoreAll(step.candidates(), step.perturbedRows(), scorer);
            search.onScores(clean, perturbed);
        }
        return ((SearchStep.Done) search.next()).result();
    }

    private static float[][][] scoreAll(double[][] candidates, List<int[]> rows, BatchScorer scorer) {
        float[][][] out = new float[candidates.length][][];
        for (int k = 0; k < candidates.length; k++) {
            out[k] = scorer.score(candidates[k].clone(), rows);
        }
        return out;
    }

    private static void shuffle(int[] a, RandomGenerator rng) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}
