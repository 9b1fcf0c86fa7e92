package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.Cmaes;
import dev.fedbpt.engine.cmaes.CmaesParameters;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.cmaes.Pycma;
import dev.fedbpt.engine.cmaes.PycmaParameters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * FedBPT's server (paper Sec. 4.3, Algorithm 1): a server-level CMA-ES whose "sampled population" is the clients'
 * uploaded means, ranked by their uploaded losses; one full CMA-ES update (mean, both paths, C, sigma) from the old
 * state, with the clients' shifts normalised by a step length sigma' instead of sigma. The sigma handed to the
 * clients next is the previous one times the update's step-size factor, sigma_{t+1} = sigma_t (sigma_after_tell /
 * sigma'): the paper's reading (sigma' only normalises the shifts, Appendix A, Eq. 10-16) and the reference code's
 * (global_es.py:120-133; its clamp at :135-142 never changes sigma) agree on this.
 *
 * <p>sigma' ({@link StepRule}): PAPER_EQ6 = 2 sqrt( sum_{k in S'_t} sum_j sigma_{t,j}^k^2 / (|S_t| lambda_k) ) over
 * the |S_t|/2 lowest-loss clients; REFERENCE_CODE = sqrt( sum_{k in S_t} sum_j sigma_{t,j}^k^2 / |S_t| /
 * floor(lambda_k/2) ) (global_es.py:105-118).
 *
 * <p>The server's CMA-ES ({@link ServerEs}): TUTORIAL is ours with the weights of each step rule's source, popsize
 * n = |S_t|: equal weights 1/mu over mu = floor(n/2) (Appendix A, from which Eq. 6 is derived) with PAPER_EQ6, log
 * weights over all n with REFERENCE_CODE. PYCMA is the reference code's pycma instance (popsize = CMA_mu = n, initial
 * C = diag(exp(1e-4 i/d)), ask before tell, foreign solutions shortened, its lazy decomposition carried across
 * rounds in the state). Uploaded losses that are NaN/infinite rank last.
 */
public final class FedBptStrategy implements ServerStrategy {

    public enum StepRule { PAPER_EQ6, REFERENCE_CODE }

    public enum ServerEs { TUTORIAL, PYCMA }

    private final StepRule rule;
    private final ServerEs serverEs;
    private final int localLambda;
    private final int localIterations;
    // The global state whose decomposition prepare() computed (identity: the server holds one instance per round).
    private CmaesState preparedFor;
    private Cmaes prepared;

    public FedBptStrategy(StepRule rule, ServerEs serverEs, int localLambda, int localIterations) {
        if (rule == null || serverEs == null) {
            throw new IllegalArgumentException("rule and serverEs must not be null");
        }
        if (localLambda < 2) {
            throw new IllegalArgumentException("localLambda must be >= 2, was " + localLambda);
        }
        if (localIterations < 1) {
            throw new IllegalArgumentException("localIterations must be >= 1, was " + localIterations);
        }
        this.rule = rule;
        this.serverEs = serverEs;
        this.localLambda = localLambda;
        this.localIterations = localIterations;
    }

    public FedBptStrategy(StepRule rule, int localLambda, int localIterations) {
        this(rule, ServerEs.TUTORIAL, localLambda, localIterations);
    }

    public FedBptStrategy(int localLambda, int localIterations) {
        this(StepRule.PAPER_EQ6, localLambda, localIterations);
    }

    public StepRule rule() {
        return rule;
    }

    public ServerEs serverEs() {
        return serverEs;
    }

    @Override
    public String name() {
        return "fedbpt";
    }

    @Override
    public GlobalState initial(int dimension, double sigma0) {
        return serverEs == ServerEs.PYCMA ? new GlobalState(0, Pycma.initialState(new double[dimension], sigma0))
                : ServerStrategy.super.initial(dimension, sigma0);
    }

    @Override
    public void prepare(GlobalState current) {
        if (serverEs == ServerEs.TUTORIAL) {
            decomposed(current.cmaes());
        }
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
        CmaesState next;
        if (serverEs == ServerEs.PYCMA) {
            // global_es.py:109-125: the means stacked in client order, es.sigma = sigma', ask() (its samples are
            // discarded; it refreshes the decomposition when due), tell with pycma's default check_points.
            List<LocalResult> byClient = new ArrayList<>(sorted);
            byClient.sort(Comparator.comparingInt(LocalResult::clientId));
            Pycma server = Pycma.resumed(current.cmaes(), PycmaParameters.server(d, n)).withSigma(sigmaPrime);
            server.updateDecompositionIfDue();
            server.tell(means(byClient), losses(byClient));
            next = server.state();
        } else {
            CmaesParameters params = rule == StepRule.PAPER_EQ6
                    ? CmaesParameters.equalWeights(d, n, Math.max(1, n / 2))
                    : CmaesParameters.logWeights(d, n, n);
            Cmaes server = decomposed(current.cmaes()).withSigmaAndParameters(sigmaPrime, params);
            server.tell(means(sorted), losses(sorted));
            next = server.state();
        }
        // The step-size adaptation's factor exp(c_s/d_s (|p_s|/E|N| - 1)) = sigma_after_tell / sigma', applied to
        // the sigma the clients had. Carrying sigma' over would multiply sigma by ~sqrt(2I/lambda) every round.
        double stepFactor = next.sigma() / sigmaPrime;
        next = next.withSigma(current.cmaes().sigma() * stepFactor);
        return new GlobalState(current.round() + 1, next);
    }

    private static double[][] means(List<LocalResult> results) {
        return results.stream().map(LocalResult::mean).toArray(double[][]::new);
    }

    /** NaN/infinite losses rank last. */
    private static double[] losses(List<LocalResult> results) {
        return results.stream().mapToDouble(r -> Double.isFinite(r.loss()) ? r.loss() : Double.POSITIVE_INFINITY)
                .toArray();
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
