package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.AskTell;
import dev.fedbpt.engine.cmaes.Cmaes;
import dev.fedbpt.engine.cmaes.CmaesParameters;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.cmaes.Pycma;
import dev.fedbpt.engine.cmaes.PycmaParameters;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.Losses;
import dev.fedbpt.engine.method.Precision;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One client's local BBT search in one round, as a state machine (Algorithm 1, ClientUpdate): I iterations of
 * ask -> score -> onScores -> tell with fitness clean/perturbed loss (Eq. 7), then one evaluation of the final
 * mean (clean; and perturbed when the upload is the ratio fitness), then Finished. Each request asks for the
 * candidates' scores on the clean rows followed by the perturbed rows (when there are any). It never calls a model;
 * the caller scores and calls {@link #onScores}. The reference code's client loop (fedbpt_train.py:298-317) is the same with
 * {@link ClientSearchConfig}'s reference-code items: the sigma list holds the sigma each ask used.
 */
public final class ClientSearch implements ClientProcedure {
    private final ClientSearchConfig config;
    private final LocalData data;
    private final Vocabulary vocabulary;
    private final long seed;
    private final int round;
    private final int clientId;
    private final AskTell cmaes;
    private final List<int[]> perturbedOnce; // the round's mask under Mask.PER_ROUND, else null
    private final double[] sigmas;
    private final double[][] told; // the fitness values each iteration told the search
    private int iteration;
    private int nonFinite;
    private Step pending;
    private double[][] candidates; // of the pending request
    private int perturbedRows;     // of the pending request, after its clean rows

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
        this.told = new double[config.iterations()][];
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

    @Override
    public Step next() {
        return pending;
    }

    /** Candidates (and final evaluations) whose scores or loss were NaN/infinite so far. */
    @Override
    public int nonFiniteCount() {
        return nonFinite;
    }

    @Override
    public void onScores(float[][][] scores) {
        if (!(pending instanceof ScorePrompts)) {
            throw new IllegalStateException("client " + clientId + " round " + round + " is done; no scores expected");
        }
        int count = candidates.length;
        checkShape(scores, count, data.size() + perturbedRows);
        float[][][] cleanScores = new float[count][][];
        float[][][] perturbedScores = perturbedRows == 0 ? null : new float[count][][];
        for (int k = 0; k < count; k++) {
            cleanScores[k] = Arrays.copyOfRange(scores[k], 0, data.size());
            if (perturbedScores != null) {
                perturbedScores[k] = Arrays.copyOfRange(scores[k], data.size(), scores[k].length);
            }
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
                // Rounded before the search takes it where the server replays the search from what is uploaded.
                fitness[k] = config.uploadLocalState() ? config.precision().round(f) : f;
            }
            told[iteration] = fitness.clone(); // as told: a search may rewrite its argument (NaN -> median)
            sigmas[iteration] = tell(cmaes, config, candidates, fitness);
            iteration++;
            pending = iteration < config.iterations() ? prepareIteration() : prepareFinal();
        } else {
            double loss = fitness(cleanScores[0], perturbedScores == null ? null : perturbedScores[0]);
            if (!Double.isFinite(loss)) {
                nonFinite++;
            }
            Precision precision = config.precision();
            LocalResult result = new LocalResult(round, clientId, precision.round(cmaes.mean()),
                    precision.round(sigmas.clone()), precision.round(loss), data.size(), null,
                    config.uploadLocalState() ? told.clone() : null);
            pending = new Finished(result, null);
            candidates = null;
        }
    }

    /**
     * The search a client ran, replayed from the fitness values it told in each iteration: the same candidates
     * (drawn from the same coordinates of the experiment seed) told the same values, so the final state equals the
     * client's bit for bit. The server rebuilds FedAvg-BBT's local states this way instead of receiving them.
     *
     * @param start the round's starting point ({@link #startingPoint}); not modified
     * @throws IllegalArgumentException when {@code told} does not have one row of lambda values per iteration
     */
    public static AskTell replay(AskTell start, ClientSearchConfig config, long experimentSeed, int round,
                                 int clientId, double[][] told) {
        if (told == null || told.length != config.iterations()) {
            throw new IllegalArgumentException("client " + clientId + " told " + (told == null ? "no" : told.length)
                    + " iterations' fitness values, expected " + config.iterations());
        }
        AskTell search = start.copy();
        for (int i = 0; i < told.length; i++) {
            double[][] asked = ask(search, experimentSeed, round, clientId, i);
            if (told[i] == null || told[i].length != asked.length) {
                throw new IllegalArgumentException("client " + clientId + " told " + (told[i] == null ? 0
                        : told[i].length) + " fitness values in iteration " + i + ", expected " + asked.length);
            }
            tell(search, config, asked, told[i].clone());
        }
        return search;
    }

    /** One iteration's candidates: the draw every client and every replay of it makes alike. */
    private static double[][] ask(AskTell search, long seed, int round, int clientId, int iteration) {
        return search.ask(Rng.of(seed, Purpose.CLIENT_CMAES, round, clientId, iteration));
    }

    /** Tells the search; returns the sigma the upload's list records for this iteration. */
    private static double tell(AskTell search, ClientSearchConfig config, double[][] candidates, double[] fitness) {
        double used = search.sigma();
        search.tell(candidates, fitness);
        return config.sigmaList() == ClientSearchConfig.SigmaList.USED ? used : search.sigma();
    }

    /** Eq. 7's F^ = L(clean) / L(perturbed) of mean losses, or the clean loss alone without a perturbed copy. */
    private double fitness(float[][] clean, float[][] perturbed) {
        double loss = Losses.meanCrossEntropy(clean, data.labels(), data.numClasses());
        return perturbed == null ? loss : loss / Losses.meanCrossEntropy(perturbed, data.labels(), data.numClasses());
    }

    private Step prepareIteration() {
        double[][] asked = ask(cmaes, seed, round, clientId, iteration);
        List<int[]> perturbed = perturbedOnce != null ? perturbedOnce
                : config.perturbationRate() > 0
                ? Perturbation.perturb(data.tokenIds(), vocabulary, config.perturbationRate(), seed, round, clientId,
                        iteration)
                : null;
        return request(asked, perturbed);
    }

    /** The final mean, scored clean (and on the round's perturbed copy when the upload is its ratio fitness). */
    private Step prepareFinal() {
        List<int[]> perturbed = null;
        if (config.ranksByRatio()) {
            perturbed = perturbedOnce != null ? perturbedOnce : Perturbation.perturb(data.tokenIds(), vocabulary,
                    config.perturbationRate(), seed, round, clientId, iteration);
        }
        return request(new double[][] {cmaes.mean()}, perturbed);
    }

    /** Scores of {@code asked} on the clean rows, then on {@code perturbed} (null: none). */
    private Step request(double[][] asked, List<int[]> perturbed) {
        candidates = asked;
        perturbedRows = perturbed == null ? 0 : perturbed.size();
        List<Prompt> prompts = new ArrayList<>(asked.length);
        for (double[] z : asked) {
            prompts.add(new Prompt.Continuous(z));
        }
        List<int[]> rows = data.tokenIds();
        if (perturbed == null) {
            return new ScorePrompts(iteration, prompts, rows);
        }
        rows = new ArrayList<>(rows);
        rows.addAll(perturbed);
        // the perturbed copies are read at their clean rows' label positions (the per-round mask may replace [MASK])
        List<int[]> labelRows = new ArrayList<>(data.tokenIds());
        labelRows.addAll(data.tokenIds());
        return new ScorePrompts(iteration, prompts, rows, labelRows);
    }

    private void checkShape(float[][][] scores, int count, int rows) {
        if (scores == null) {
            throw new IllegalArgumentException("scores must not be null");
        }
        if (scores.length != count) {
            throw new IllegalArgumentException("scores has " + scores.length + " prompts, expected " + count);
        }
        for (int k = 0; k < count; k++) {
            if (scores[k] == null || scores[k].length != rows) {
                throw new IllegalArgumentException("scores[" + k + "] must have " + rows + " rows, had "
                        + (scores[k] == null ? "null" : scores[k].length));
            }
            for (int r = 0; r < rows; r++) {
                if (scores[k][r] == null || scores[k][r].length != data.numClasses()) {
                    throw new IllegalArgumentException("scores[" + k + "][" + r + "] must have " + data.numClasses()
                            + " class scores");
                }
            }
        }
    }
}
