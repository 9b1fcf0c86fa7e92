package dev.fedbpt.benchmarks;

import dev.fedbpt.actors.ConfiguredMethod;
import dev.fedbpt.actors.ConfiguredModels;
import dev.fedbpt.actors.ExperimentRunner;
import dev.fedbpt.benchmarks.PopulationBench.EngineCosts;
import dev.fedbpt.benchmarks.PopulationBench.Settings;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.cmaes.AskTell;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.fedbpt.BatchScorer;
import dev.fedbpt.engine.fedbpt.ClientSearch;
import dev.fedbpt.engine.fedbpt.ClientSearchConfig;
import dev.fedbpt.engine.fedbpt.FedBptMethod;
import dev.fedbpt.engine.fedbpt.GlobalState;
import dev.fedbpt.engine.fedbpt.LocalResult;
import dev.fedbpt.engine.fedbpt.LocalSimulation;
import dev.fedbpt.engine.fedbpt.ServerStrategy;
import dev.fedbpt.engine.method.LocalRounds;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import dev.fedbpt.inference.ScoringModel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * The engine alone at the benchmark's sizes: the FedBPT server and one client (the population's client 0, the
 * fake scorer) on the state after round 1, whose covariance is full like every later round's (round 1 starts
 * from C = I, which decomposes in O(d^2) instead of O(d^3)).
 */
final class EngineTimings {
    private static volatile Object sink; // keeps timed results alive, so the JIT cannot drop the work

    final Settings settings;
    final ExperimentConfig config;
    final ServerStrategy strategy;
    final ClientSearchConfig search;
    final GlobalState global;
    final LocalData data;
    final Vocabulary vocabulary;
    final BatchScorer scorer;

    EngineTimings(Settings s) {
        config = PopulationBench.config(s, s.population(), s.sampled(), 2);
        settings = s;
        strategy = fedBpt(config).strategy();
        search = fedBpt(config).search();
        GlobalState initial = strategy.initial(s.dimension(), config.settings().number("search.sigma0"));
        global = strategy.aggregate(initial, uploads(s, initial));
        try (ScoringModel model = new ConfiguredModels().load(config)) {
            data = PopulationBench.syntheticPopulation(s, s.population(), model, model.numClasses()).clientData().apply(0);
            vocabulary = new Vocabulary(model.vocabularySize(), model.specialTokenIds());
            scorer = fakeScorer(model.numClasses());
        }
    }

    /** One client's whole local search, building its own starting point (and decomposing C) as a lone client. */
    LocalResult report() {
        return upload(new ClientSearch(global.cmaes(), search, data, vocabulary, settings.seed(), global.round(), 0));
    }

    EngineCosts costs() {
        List<LocalResult> uploads = uploads(settings, global);
        int reps = settings.engineReps();
        // The decomposition of the global covariance, which the server computes while the clients search, and
        // the update the round then waits for (the same strategy instance keeps the prepared decomposition).
        double prepareMs = medianMs(reps, () -> {
            ServerStrategy fresh = fedBpt(config).strategy();
            fresh.prepare(global);
            return fresh;
        });
        strategy.prepare(global);
        double serverMs = medianMs(reps, () -> strategy.aggregate(global, uploads));
        double clientMs = medianMs(reps, this::report);
        AskTell shared = ClientSearch.startingPoint(global.cmaes(), search);
        double sharedMs = medianMs(reps, () -> upload(new ClientSearch(shared, search, data, vocabulary,
                settings.seed(), global.round(), 0)));
        // FedAvg-BBT's server rebuilds each client's local state from the fitness values it told its search.
        ClientSearchConfig telling = new ClientSearchConfig(search.iterations(), search.populationSize(),
                search.perturbationRate(), true, search.optimizer(), search.sigmaList(), search.start(),
                search.ranking(), search.mask(), search.precision());
        double[][] told = upload(new ClientSearch(shared, telling, data, vocabulary, settings.seed(), global.round(),
                0)).told();
        double replayMs = medianMs(reps, () -> ClientSearch.replay(shared, telling, settings.seed(), global.round(), 0,
                told).state());
        return new EngineCosts(settings.sampled(), settings.dimension(), serverMs, prepareMs, clientMs, sharedMs,
                replayMs, reps);
    }

    private static FedBptMethod fedBpt(ExperimentConfig config) {
        return (FedBptMethod) ConfiguredMethod.of(config);
    }

    private LocalResult upload(ClientSearch search) {
        return (LocalResult) LocalRounds.runClient(search, LocalSimulation.prompts(scorer)).upload();
    }

    /**
     * What {@code sampled} clients upload after a round from {@code global}: means scattered around the global one,
     * shrinking local sigmas, varied losses, and (as FedBPT's clients) no local CMA-ES state.
     */
    private static List<LocalResult> uploads(Settings s, GlobalState global) {
        CmaesState state = global.cmaes();
        List<LocalResult> results = new ArrayList<>(s.sampled());
        for (int client = 0; client < s.sampled(); client++) {
            RandomGenerator rng = Rng.of(s.seed(), Purpose.BENCHMARK, global.round(), client);
            double[] mean = state.mean();
            double[] shifted = new double[mean.length];
            for (int i = 0; i < mean.length; i++) {
                shifted[i] = mean[i] + 0.3 * state.sigma() * rng.nextGaussian();
            }
            double[] sigmas = new double[s.localIterations()];
            for (int t = 0; t < sigmas.length; t++) {
                sigmas[t] = state.sigma() * Math.pow(0.97, t + 1);
            }
            results.add(new LocalResult(global.round(), client, shifted, sigmas, 0.5 + rng.nextDouble(),
                    s.rowsPerClient(), null));
        }
        return results;
    }

    /** Class scores that cost next to nothing, so the timing is the search's own (CMA-ES, perturbation, losses). */
    private static BatchScorer fakeScorer(int classes) {
        return (z, rows) -> {
            float[][] scores = new float[rows.size()][classes];
            for (int r = 0; r < scores.length; r++) {
                int[] row = rows.get(r);
                for (int c = 0; c < classes; c++) {
                    scores[r][c] = (float) (z[(r + c) % z.length] + 1e-4 * row[(c + 1) % row.length]);
                }
            }
            return scores;
        };
    }

    /** Median wall time of {@code reps} runs after two untimed ones (class loading, JIT). */
    private static double medianMs(int reps, Supplier<?> work) {
        for (int i = 0; i < 2; i++) {
            sink = work.get();
        }
        double[] ms = new double[reps];
        for (int i = 0; i < reps; i++) {
            long start = System.nanoTime();
            sink = work.get();
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        return new Median().evaluate(ms);
    }
}
