package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.cmaes.Cmaes;
import dev.fedbpt.engine.cmaes.CmaesParameters;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.method.Losses;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * BBT on one client (Sun et al. 2022): CMA-ES over z, the prompt base + reshape(A z), fitness the loss on the
 * client's own training rows (or the rows given), for a number of generations; the best z seen is kept. Generation
 * g draws its candidates from (seed, purpose, coordinates..., g). Post-tuning and BBT(Fed)'s local search are both
 * this.
 */
final class ZSearch {
    private final Projection projection;
    private final float[][] base;
    private final ClientTask task;
    private final LocalData rows;
    private final Cmaes cmaes;
    private final int generations;
    private final Purpose purpose;
    private final int[] coordinates;
    private int generation;
    private double[][] candidates;
    private double[] bestZ;
    private double bestLoss = Double.POSITIVE_INFINITY;
    private int nonFinite;

    ZSearch(Projection projection, float[][] base, double[] start, double sigma, int population, int generations,
            ClientTask task, Purpose purpose, int... coordinates) {
        this(projection, base, start, sigma, population, generations, task, task.data(), purpose, coordinates);
    }

    /** The search fitted on {@code rows} rather than the client's training rows. */
    ZSearch(Projection projection, float[][] base, double[] start, double sigma, int population, int generations,
            ClientTask task, LocalData rows, Purpose purpose, int... coordinates) {
        this.projection = projection;
        this.base = base;
        this.task = task;
        this.rows = rows;
        this.generations = generations;
        this.purpose = purpose;
        this.coordinates = coordinates.clone();
        cmaes = new Cmaes(CmaesState.initial(start.clone(), sigma),
                CmaesParameters.standard(projection.dimension(), population));
        bestZ = start.clone();
    }

    boolean done() {
        return generation >= generations;
    }

    int generation() {
        return generation;
    }

    ClientProcedure.ScorePrompts request() {
        int[] at = Arrays.copyOf(coordinates, coordinates.length + 1);
        at[coordinates.length] = generation;
        candidates = cmaes.ask(Rng.of(task.seed(), purpose, at));
        List<Prompt> prompts = new ArrayList<>(candidates.length);
        for (double[] z : candidates) {
            prompts.add(new Prompt.Embeddings(projection.apply(base, z)));
        }
        return new ClientProcedure.ScorePrompts(generation, prompts, rows.tokenIds());
    }

    void onScores(float[][][] scores) {
        double[] fitness = new double[scores.length];
        for (int k = 0; k < scores.length; k++) {
            double loss = Losses.meanCrossEntropy(scores[k], rows.labels(), rows.numClasses());
            if (!Double.isFinite(loss)) {
                nonFinite++;
                loss = Double.MAX_VALUE; // the worst fitness
            }
            fitness[k] = loss;
            if (loss < bestLoss) {
                bestLoss = loss;
                bestZ = candidates[k].clone();
            }
        }
        cmaes.tell(candidates, fitness);
        generation++;
    }

    /** The rows the search fits on. */
    LocalData rows() {
        return rows;
    }

    /** Candidate {@code k} of the generation scored last. */
    double[] candidate(int k) {
        return candidates[k].clone();
    }

    double[] bestZ() {
        return bestZ.clone();
    }

    double bestLoss() {
        return bestLoss;
    }

    double[] mean() {
        return cmaes.mean();
    }

    int nonFiniteCount() {
        return nonFinite;
    }
}
