package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.LocalRounds;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.PromptScorer;
import dev.fedbpt.engine.method.Upload;
import java.util.ArrayList;
import java.util.List;

/**
 * FedBPT's view of {@link LocalRounds}: a {@link SimulationConfig} run through the method seam, with its states and
 * sigma course typed.
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
        FedBptMethod method = new FedBptMethod(config.strategy().name(), config.strategy(), config.search(),
                config.dimension(), config.sigma0(), true, config.seed());
        LocalRounds.Outcome outcome = LocalRounds.run(method, config.seed(), config.rounds(),
                config.sampleFraction(), clientData, vocabulary, prompts(scorer), shuffleClientOrder);
        List<GlobalState> states = new ArrayList<>();
        double[] meanLoss = new double[config.rounds()];
        double[] sigma = new double[config.rounds()];
        for (int t = 0; t < config.rounds(); t++) {
            GlobalState state = (GlobalState) outcome.states().get(t);
            states.add(state);
            double sum = 0;
            for (Upload upload : outcome.uploads().get(t)) { // client id order
                sum += upload.loss();
            }
            meanLoss[t] = sum / outcome.uploads().get(t).size();
            sigma[t] = state.cmaes().sigma();
        }
        MethodState initial = outcome.initial();
        return new SimulationResult((GlobalState) initial, states, meanLoss, sigma, outcome.nonFiniteCount());
    }

    /** A z-scorer as a prompt scorer (this package's methods ask only for continuous prompts). */
    public static PromptScorer prompts(BatchScorer scorer) {
        return (prompt, rows) -> scorer.score(((Prompt.Continuous) prompt).z().clone(), rows);
    }
}
