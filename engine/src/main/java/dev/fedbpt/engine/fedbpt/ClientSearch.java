package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.Cmaes;
import dev.fedbpt.engine.cmaes.CmaesParameters;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.List;

/**
 * One client's local BBT search in one round, as a state machine (Algorithm 1, ClientUpdate): I iterations of
 * ask -> Evaluate -> onScores -> tell with fitness clean/perturbed loss (Eq. 7), then one clean evaluation of the
 * final mean, then Done. It never calls a model; the caller scores and calls {@link #onScores}.
 */
public final class ClientSearch {
    private final ClientSearchConfig config;
    private final LocalData data;
    private final Vocabulary vocabulary;
    private final long seed;
    private final int round;
    private final int clientId;
    private final Cmaes cmaes;
    private final double[] sigmas;
    private int iteration;
    private int nonFinite;
    private SearchStep pending;

    public ClientSearch(CmaesState start, ClientSearchConfig config, LocalData data, Vocabulary vocabulary,
                        long experimentSeed, int round, int clientId) {
        this(start == null || config == null ? null : startingPoint(start, config), config, data, vocabulary,
                experimentSeed, round, clientId);
    }

    /**
     * Starts from a copy of {@code start}, a CMA-ES built from the global state with {@link #startingPoint}: clients
     * of one round may share one (already decomposed) instance and each gets its own copy.
     */
    public ClientSearch(Cmaes start, ClientSearchConfig config, LocalData data, Vocabulary vocabulary,
                        long experimentSeed, int round, int clientId) {
        if (start == null || config == null || data == null || vocabulary == null) {
            throw new IllegalArgumentException("start, config, data and vocabulary must not be null");
        }
        if (round < 0 || clientId < 0) {
            throw new IllegalArgumentException("round and clientId must be >= 0");
        }
        this.config = config;
        this.data = data;
        this.vocabulary = vocabulary;
        this.seed = experimentSeed;
        this.round = round;
        this.clientId = clientId;
        if (!start.parameters().equals(CmaesParameters.standard(start.parameters().dimension(),
                config.populationSize())) || start.variant() != config.variant()) {
            throw new IllegalArgumentException("start was not built by ClientSearch.startingPoint for this config");
        }
        this.cmaes = start.copy();
        this.sigmas = new double[config.iterations()];
        this.pending = prepareIteration();
    }

    /** The local CMA-ES every client search of a round starts from: the global state with the local parameters. */
    public static Cmaes startingPoint(CmaesState global, ClientSearchConfig config) {
        return new Cmaes(global, CmaesParameters.standard(global.dimension(), config.populationSize()),
                config.variant());
    }

    /** The current pending step (the same object until {@link #onScores} is called). */
    public SearchStep next() {
        return pending;
    }

    /** Candidates (and final evaluations) whose scores or loss were NaN/infinite so far. */
    public int nonFiniteCount() {
        return nonFinite;
    }

    public void onScores(float[][][] cleanScores, float[][][] perturbedScores) {
        if (!(pending instanceof SearchStep.Evaluate step)) {
            throw new IllegalStateException("client " + clientId + " round " + round + " is done; no scores expected");
        }
        int count = step.candidates().length;
        checkShape("cleanScores", cleanScores, count);
        if (step.perturbedRows() == null) {
            if (perturbedScores != null) {
                throw new IllegalArgumentException("perturbedScores must be null: this step has no perturbed rows");
            }
        } else {
            checkShape("perturbedScores", perturbedScores, count);
        }

        if (iteration < config.iterations()) {
            double[] fitness = new double[count];
            for (int k = 0; k < count; k++) {
                double clean = Losses.meanCrossEntropy(cleanScores[k], data.labels(), data.numClasses());
                double f = clean;
                if (perturbedScores != null) {
                    f = clean / Losses.meanCrossEntropy(perturbedScores[k], data.labels(), data.numClasses());
                }
                if (!Double.isFinite(f)) {
                    nonFinite++;
                    f = Double.POSITIVE_INFINITY; // worst, so a broken evaluation never steers the search
                }
                fitness[k] = f;
            }
            cmaes.tell(step.candidates(), fitness);
            sigmas[iteration] = cmaes.sigma();
            iteration++;
            pending = iteration < config.iterations() ? prepareIteration() : prepareFinal();
        } else {
            double loss = Losses.meanCrossEntropy(cleanScores[0], data.labels(), data.numClasses());
            if (!Double.isFinite(loss)) {
                nonFinite++;
            }
            LocalResult result = new LocalResult(round, clientId, cmaes.mean(), sigmas.clone(), loss, data.size(),
                    config.uploadLocalState() ? cmaes.state() : null);
            pending = new SearchStep.Done(result);
        }
    }

    private SearchStep prepareIteration() {
        double[][] candidates = cmaes.ask(Rng.of(seed, Purpose.CLIENT_CMAES, round, clientId, iteration));
        List<int[]> perturbed = config.perturbationRate() > 0
                ? Perturbation.perturb(data.tokenIds(), vocabulary, config.perturbationRate(), seed, round, clientId,
                        iteration)
                : null;
        return new SearchStep.Evaluate(iteration, candidates, data.tokenIds(), perturbed);
    }

    private SearchStep prepareFinal() {
        return new SearchStep.Evaluate(iteration, new double[][] {cmaes.mean()}, data.tokenIds(), null);
    }

    private void checkShape(String name, float[][][] scores, int count) {
        if (scores == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        if (scores.length != count) {
            throw new IllegalArgumentException(name + " has " + scores.length + " candidates, expected " + count);
        }
        for (int k = 0; k < count; k++) {
            if (scores[k] == null || scores[k].length != data.size()) {
                throw new IllegalArgumentException(name + "[" + k + "] must have " + data.size() + " rows, had "
                        + (scores[k] == null ? "null" : scores[k].length));
            }
            for (int r = 0; r < data.size(); r++) {
                if (scores[k][r] == null || scores[k][r].length != data.numClasses()) {
                    throw new IllegalArgumentException(name + "[" + k + "][" + r + "] must have " + data.numClasses()
                            + " class scores");
                }
            }
        }
    }
}
