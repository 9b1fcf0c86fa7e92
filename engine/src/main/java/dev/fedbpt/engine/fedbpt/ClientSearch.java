package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.AskTell;
import dev.fedbpt.engine.cmaes.Cmaes;
import dev.fedbpt.engine.cmaes.CmaesParameters;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.cmaes.Pycma;
import dev.fedbpt.engine.cmaes.PycmaParameters;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.List;

/**
 * One client's local BBT search in one round, as a state machine (Algorithm 1, ClientUpdate): I iterations of
 * ask -> Evaluate -> onScores -> tell with fitness clean/perturbed loss (Eq. 7), then one evaluation of the final
 * mean (clean; and perturbed when the upload is the ratio fitness), then Done. It never calls a model; the caller
 * scores and calls {@link #onScores}. The reference code's client loop (fedbpt_train.py:298-317) is the same with
 * {@link ClientSearchConfig}'s reference-code items: the sigma list holds the sigma each ask used.
 */
public final class ClientSearch {
    private final ClientSearchConfig config;
    private final LocalData data;
    private final Vocabulary vocabulary;
    private final long seed;
    private final int round;
    private final int clientId;
    private final AskTell cmaes;
    private final List<int[]> perturbedOnce; // the round's mask under Mask.PER_ROUND, else null
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
    public ClientSearch(AskTell start, ClientSearchConfig config, LocalData data, Vocabulary vocabulary,
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
        this.cmaes = start.copy();
        this.perturbedOnce = config.perturbationRate() > 0 && config.mask() == ClientSearchConfig.Mask.PER_ROUND
                ? Perturbation.perturbPerRound(data.tokenIds(), vocabulary, config.perturbationRate(),
                        experimentSeed, round, clientId)
                : null;
        this.sigmas = new double[config.iterations()];
        this.pending = prepareIteration();
    }

    /**
     * The local search every client of a round starts from, decomposed: the global state (or its light copy) with
     * the local optimizer's parameters. Clients may share one instance; each copies it.
     */
    public static AskTell startingPoint(CmaesState global, ClientSearchConfig config) {
        CmaesState start = config.start() == ClientSearchConfig.Start.LIGHT_COPY ? global.lightCopy() : global;
        int d = global.dimension();
        return switch (config.optimizer()) {
            case TUTORIAL -> new Cmaes(start, CmaesParameters.standard(d, config.populationSize()),
                    Cmaes.Variant.TUTORIAL).prepared();
            case MIRRORED_ACTIVE -> new Cmaes(start, CmaesParameters.standard(d, config.populationSize()),
                    Cmaes.Variant.MIRRORED_ACTIVE).prepared();
            case PYCMA -> Pycma.fresh(start, PycmaParameters.client(d, config.populationSize()));
        };
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
                double f = fitness(cleanScores[k], perturbedScores == null ? null : perturbedScores[k]);
                if (!Double.isFinite(f)) {
                    nonFinite++;
                    // Worst, so a broken evaluation never steers the search; pycma itself replaces a NaN by the
                    // median of the others (evolution_strategy.py:2766) and ranks infinity last.
                    f = config.optimizer() == ClientSearchConfig.Optimizer.PYCMA && Double.isNaN(f)
                            ? Double.NaN : Double.POSITIVE_INFINITY;
                }
                fitness[k] = f;
            }
            double used = cmaes.sigma();
            cmaes.tell(step.candidates(), fitness);
            sigmas[iteration] = config.sigmaList() == ClientSearchConfig.SigmaList.USED ? used : cmaes.sigma();
            iteration++;
            pending = iteration < config.iterations() ? prepareIteration() : prepareFinal();
        } else {
            double loss = fitness(cleanScores[0], perturbedScores == null ? null : perturbedScores[0]);
            if (!Double.isFinite(loss)) {
                nonFinite++;
            }
            LocalResult result = new LocalResult(round, clientId, cmaes.mean(), sigmas.clone(), loss, data.size(),
                    config.uploadLocalState() ? cmaes.state() : null);
            pending = new SearchStep.Done(result);
        }
    }

    /** Eq. 7's F^ = L(clean) / L(perturbed) of mean losses, or the clean loss alone without a perturbed copy. */
    private double fitness(float[][] clean, float[][] perturbed) {
        double loss = Losses.meanCrossEntropy(clean, data.labels(), data.numClasses());
        return perturbed == null ? loss : loss / Losses.meanCrossEntropy(perturbed, data.labels(), data.numClasses());
    }

    private SearchStep prepareIteration() {
        double[][] candidates = cmaes.ask(Rng.of(seed, Purpose.CLIENT_CMAES, round, clientId, iteration));
        List<int[]> perturbed = perturbedOnce != null ? perturbedOnce
                : config.perturbationRate() > 0
                ? Perturbation.perturb(data.tokenIds(), vocabulary, config.perturbationRate(), seed, round, clientId,
                        iteration)
                : null;
        return new SearchStep.Evaluate(iteration, candidates, data.tokenIds(), perturbed);
    }

    /** The final mean, scored clean (and on the round's perturbed copy when the upload is its ratio fitness). */
    private SearchStep prepareFinal() {
        List<int[]> perturbed = null;
        if (config.ranksByRatio()) {
            perturbed = perturbedOnce != null ? perturbedOnce : Perturbation.perturb(data.tokenIds(), vocabulary,
                    config.perturbationRate(), seed, round, clientId, iteration);
        }
        return new SearchStep.Evaluate(iteration, new double[][] {cmaes.mean()}, data.tokenIds(), perturbed);
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
