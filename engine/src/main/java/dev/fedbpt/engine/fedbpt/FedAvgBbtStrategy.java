package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.CmaesState;
import java.util.Comparator;
import java.util.List;

/**
 * FedAvg-BBT baseline: sample-count-weighted average (p_k = n_k / sum n) of the clients' final local CMA-ES
 * states: mean, sigma, covariance, and also both evolution paths (averaging the paths keeps the next round's
 * local searches starting from a consistent state; the paper says only "means, sigmas and covariances").
 * A weighted average of positive-definite matrices is positive definite, so C stays valid. The generation
 * counter becomes the largest local one. Results are summed in clientId order so arrival order never matters.
 */
public final class FedAvgBbtStrategy implements ServerStrategy {

    @Override
    public String name() {
        return "fedavg-bbt";
    }

    @Override
    public long uplinkBytes(LocalResult result) {
        return CommunicationCost.fedAvgBbtUplinkBytes(result.mean().length, result.sigmas().length);
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
            double p = r.sampleCount() / total;
            CmaesState s = r.localState();
            if (s == null) {
                throw new IllegalArgumentException("FedAvg-BBT averages the clients' local CMA-ES states, but client "
                        + r.clientId() + " uploaded none (its search ran with uploadLocalState = false)");
            }
            for (int i = 0; i < d; i++) {
                mean[i] += p * r.mean()[i];
                ps[i] += p * s.pathSigma()[i];
                pc[i] += p * s.pathC()[i];
                double[] ci = c[i];
                double[] si = s.covariance()[i];
                for (int j = 0; j < d; j++) {
                    ci[j] += p * si[j];
                }
            }
            sigma += p * s.sigma();
            generation = Math.max(generation, s.generation());
        }
        return new GlobalState(current.round() + 1, new CmaesState(mean, sigma, c, ps, pc, generation));
    }
}
