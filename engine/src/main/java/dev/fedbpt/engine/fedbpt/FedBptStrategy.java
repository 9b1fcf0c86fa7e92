package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.Cmaes;
import dev.fedbpt.engine.cmaes.CmaesParameters;
import dev.fedbpt.engine.cmaes.CmaesState;
import java.util.List;

/**
 * FedBPT's server (paper Sec. 4.3, Algorithm 1): a server-level CMA-ES whose "sampled population" is the clients'
 * uploaded means, ranked by their uploaded clean losses; one full CMA-ES update (mean, both paths, C, sigma) from
 * the old state, with the clients' shifts normalised by a corrected step length sigma' instead of sigma.
 * The step-size adaptation factor is then applied to the old global sigma (paper rule) or to the clients' last
 * local sigma with the reference code's clamp.
 *
 * <p>Server population: lambda = n = |S_t| (one "sample" per participating client). The choice of mu and weights
 * follows the source of each step rule, so each rule is a faithful reproduction:
 * <ul>
 *   <li>{@link StepRule#PAPER_EQ6} (default): mu = max(1, floor(n/2)) with equal weights 1/mu - exactly the setting
 *   of Appendix A (w_1 = ... = w_mu = 1/mu, mu = |S_t|/2) from which Eq. 6 is derived, and S'_t (the |S_t|/2
 *   lowest-loss clients) are then precisely the recombined parents.
 *   sigma' = 2 sqrt( sum_{k in S'_t} sum_j sigma_{t,j}^k^2 / (|S_t| lambda_k) ).</li>
 *   <li>{@link StepRule#REFERENCE_CODE}: the public reference code's pycma server with popsize = mu = n; we use
 *   log weights w_i ~ ln(n + 1/2) - ln i over all n (all positive; pycma's default formula would make half of
 *   them negative). sigma' = sqrt( sum_{k in S_t} sum_j sigma_{t,j}^k^2 / |S_t| / floor(lambda_k/2) ); after the
 *   update sigma = sigma_new / sigma' * s_last, clamped to [0.5, s_last], where s_last is the mean over clients
 *   of their last local sigma (the code uses "the local sigma"; the mean keeps the result order-independent).
 *   If s_last < 0.5 the clamp yields s_last.</li>
 * </ul>
 * Uploaded losses that are NaN/infinite rank last.
 */
public final class FedBptStrategy implements ServerStrategy {

    public enum StepRule { PAPER_EQ6, REFERENCE_CODE }

    private final StepRule rule;
    private final int localLambda;
    private final int localIterations;
    // The global state whose decomposition prepare() computed (identity: the server holds one instance per round).
    private CmaesState preparedFor;
    private Cmaes prepared;

    public FedBptStrategy(StepRule rule, int localLambda, int localIterations) {
        if (rule == null) {
            throw new IllegalArgumentException("rule must not be null");
        }
        if (localLambda < 2) {
            throw new IllegalArgumentException("localLambda must be >= 2, was " + localLambda);
        }
        if (localIterations < 1) {
            throw new IllegalArgumentException("localIterations must be >= 1, was " + localIterations);
        }
        this.rule = rule;
        this.localLambda = localLambda;
        this.localIterations = localIterations;
    }

    public FedBptStrategy(int localLambda, int localIterations) {
        this(StepRule.PAPER_EQ6, localLambda, localIterations);
    }

    public StepRule rule() {
        return rule;
    }

    @Override
    public String name() {
        return rule == StepRule.PAPER_EQ6 ? "fedbpt" : "fedbpt-refcode";
    }

    @Override
    public void prepare(GlobalState current) {
        decomposed(current.cmaes());
    }

    /** The global state with its covariance decomposed; the latest one is kept for the round's aggregate. */
    private synchronized Cmaes decomposed(CmaesState state) {
        if (preparedFor != state) {
            prepared = new Cmaes(state, CmaesParameters.standard(state.dimension(), 2)).prepared();
            preparedFor = state;
        }
        return prepared;
    }

    @Override
    public boolean needsLocalStates() {
        return false; // the server's CMA-ES takes the clients' means and losses only
    }

    @Override
    public long uplinkBytes(LocalResult result) {
        return CommunicationCost.fedBptUplinkBytes(result.mean().length, result.sigmas().length);
    }

    @Override
    public GlobalState aggregate(GlobalState current, List<LocalResult> results) {
        List<LocalResult> sorted = ServerStrategy.checkedAndSorted(current, results);
        for (LocalResult r : sorted) {
            if (r.sigmas().length != localIterations) {
                throw new IllegalArgumentException("client " + r.clientId() + " uploaded " + r.sigmas().length
                        + " sigmas, expected " + localIterations);
            }
            for (double s : r.sigmas()) {
                if (!(s > 0) || !Double.isFinite(s)) {
                    throw new IllegalArgumentException("client " + r.clientId() + " uploaded a non-positive sigma");
                }
            }
        }
        int n = sorted.size();
        int d = current.cmaes().dimension();
        double sigmaPrime = serverStep(rule, sorted, localLambda);
        CmaesParameters params = rule == StepRule.PAPER_EQ6
                ? CmaesParameters.equalWeights(d, n, Math.max(1, n / 2))
                : CmaesParameters.logWeights(d, n, n);
        Cmaes server = decomposed(current.cmaes()).withSigmaAndParameters(sigmaPrime, params);
        double[][] means = new double[n][];
        double[] losses = new double[n];
        for (int i = 0; i < n; i++) {
            means[i] = sorted.get(i).mean();
            losses[i] = sorted.get(i).loss();
        }
        server.tell(means, losses);
        CmaesState next = server.state();
        // The step-size adaptation's factor exp(c_s/d_s (|p_s|/E|N| - 1)) = sigma_new / sigma'.
        double stepFactor = next.sigma() / sigmaPrime;
        if (rule == StepRule.PAPER_EQ6) {
            // sigma' only normalises the clients' shifts (Appendix A, Eq. 10-16); the step size itself is adapted
            // from the old state. Carrying sigma' over would multiply sigma by ~sqrt(2I/lambda) every round.
            next = next.withSigma(current.cmaes().sigma() * stepFactor);
        } else {
            double last = 0;
            for (LocalResult r : sorted) {
                last += r.sigmas()[localIterations - 1];
            }
            last /= n;
            next = next.withSigma(Math.min(Math.max(stepFactor * last, 0.5), last));
        }
        return new GlobalState(current.round() + 1, next);
    }

    /** sigma' of the given rule; results must be sorted by loss (best first). */
    static double serverStep(StepRule rule, List<LocalResult> sortedByLoss, int localLambda) {
        int n = sortedByLoss.size();
        if (rule == StepRule.PAPER_EQ6) {
            int best = Math.max(1, n / 2);
            double sum = 0;
            for (int k = 0; k < best; k++) {
                for (double s : sortedByLoss.get(k).sigmas()) {
                    sum += s * s;
                }
            }
            return 2 * Math.sqrt(sum / ((double) n * localLambda));
        }
        double sum = 0;
        for (LocalResult r : sortedByLoss) {
            for (double s : r.sigmas()) {
                sum += s * s;
            }
        }
        return Math.sqrt(sum / n / (localLambda / 2));
    }
}
