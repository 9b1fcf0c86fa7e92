package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.CmaesState;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * FedAvg-BBT baseline: sample-count-weighted ({@link Weights#SAMPLES}: p_k = n_k / sum n, the paper's FedAvg) or
 * unweighted ({@link Weights#UNIFORM}: p_k = 1/|S_t|, as the authors' FED_BBT code averages) average of the clients'
 * final local CMA-ES states: mean, sigma and covariance, the three the paper names. The evolution paths are either averaged too
 * ({@link Paths#AVERAGE}, the default: the next round's local searches continue from a consistent state) or reset
 * to zero with the generation counter ({@link Paths#RESET}: each round's local searches start as a fresh CMA-ES
 * from the averaged mean, sigma and covariance, as a pycma strategy built from them would). Either way the global
 * sigma falls round after round, faster under RESET: cumulative step-size adaptation reads a short sigma path as
 * steps that are too long, and 8 iterations are too few for a path that starts at zero to grow (c_sigma = 0.0072 at
 * d = 500), while an average of ten largely independent paths is shorter than one (docs/RESULTS.md, "Why
 * FedAvg-BBT's sigma falls").
 * A weighted average of positive-definite matrices is positive definite, so C stays valid. Under AVERAGE the
 * generation counter becomes the largest local one. Results are summed in clientId order so arrival order never matters.
 */
public final class FedAvgBbtStrategy implements ServerStrategy {

    /** What the server does with the clients' evolution paths. */
    public enum Paths { AVERAGE, RESET }

    /** How the clients' states are weighted. */
    public enum Weights { SAMPLES, UNIFORM }

    private final Paths paths;
    private final Weights weights;

    public FedAvgBbtStrategy(Paths paths, Weights weights) {
        this.paths = Objects.requireNonNull(paths, "paths");
        this.weights = Objects.requireNonNull(weights, "weights");
    }

    public FedAvgBbtStrategy(Paths paths) {
        this(paths, Weights.SAMPLES);
    }

    /** Averages the paths too, as fedbpt always did before the choice existed. */
    public FedAvgBbtStrategy() {
        this(Paths.AVERAGE);
    }

    public Paths paths() {
        return paths;
    }

    public Weights weights() {
        return weights;
    }

    @Override
    public String name() {
        return "fedavg-bbt";
    }


    @Override
    public GlobalState aggregate(GlobalState current, List<LocalResult> results) {
        List<LocalResult> sorted = ServerStrategy.checkedAndSorted(current, results);
        sorted.sort(Comparator.comparingInt(LocalResult::clientId));
        int d = current.cmaes().dimension();
        double total = 0;
        for (LocalResult r : sorted) {
            total += r.sampleCount();
        }
        double[] mean = new double[d];
        double sigma = 0;
        double[][] c = new double[d][d];
        double[] ps = new double[d];
        double[] pc = new double[d];
        long generation = 0;
        for (LocalResult r : sorted) {
            double p = weights == Weights.SAMPLES ? r.sampleCount() / total : 1.0 / sorted.size();
            CmaesState s = r.localState();
            if (s == null) {
                throw new IllegalArgumentException("FedAvg-BBT averages the clients' local CMA-ES states, but client "
                        + r.clientId() + " uploaded none (and no fitness values to replay its search from)");
            }
            for (int i = 0; i < d; i++) {
                mean[i] += p * r.mean()[i];
                double[] ci = c[i];
                double[] si = s.covariance()[i];
                for (int j = 0; j < d; j++) {
                    ci[j] += p * si[j];
                }
            }
            sigma += p * s.sigma();
            if (paths == Paths.AVERAGE) {
                for (int i = 0; i < d; i++) {
                    ps[i] += p * s.pathSigma()[i];
                    pc[i] += p * s.pathC()[i];
                }
                generation = Math.max(generation, s.generation());
            }
        }
        return new GlobalState(current.round() + 1, new CmaesState(mean, sigma, c, ps, pc, generation));
    }
}
