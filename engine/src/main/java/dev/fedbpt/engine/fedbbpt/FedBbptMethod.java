package dev.fedbpt.engine.fedbbpt;

import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.Upload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fed-BBPT's text path (Lin et al., App. B.1: federated BDPL) behind the method seam. The global state holds the
 * candidate token ids and theta, n categorical distributions over them; every sampled client receives it whole, runs
 * one local epoch of BDPL ({@link BbptClient}) and uploads its theta; the server averages the clients' theta
 * (Algorithm 1; uniform or by example counts), which keeps every row on the simplex (a convex combination of rows
 * each within 1e-3 of the simplex). Evaluation scores the argmax prompt (run_glue_discrete_LM.py:648,716).
 *
 * <p>Round 0 is a counts round: without candidates, the clients upload only token and pair counts of their own rows
 * ({@link TokenCounts}, which says why this respects privacy); the server sums them, picks the candidates by PMI as
 * BDPL builds its lists ({@link PmiCandidates}) and starts theta at 1/N (run_glue_discrete_LM.py:547). It makes no API
 * calls and there is no prompt to evaluate after it ({@link #evaluationPrompt} is null).
 *
 * <p>Bytes, as the paper counts them (C.3.3): theta, n x N fp32 values (4 bytes each), each way; the counts round's
 * upload 8 bytes per nonzero count entry (a token id, or two ids of at most 16 bits each as RoBERTa's 50265 are, in
 * 4 bytes, and a 4-byte count) and its downlink nothing. The candidate ids clients need once (N x 4 bytes) are not
 * counted, as the paper does not count them.
 */
public final class FedBbptMethod implements FederatedMethod {
    private final String name;
    private final FedBbptConfig config;

    public FedBbptMethod(String name, FedBbptConfig config) {
        if (name == null || config == null) {
            throw new IllegalArgumentException("name and config must not be null");
        }
        this.name = name;
        this.config = config;
    }

    @Override
    public String name() {
        return name;
    }

    public FedBbptConfig config() {
        return config;
    }

    @Override
    public FedBbptState initialize() {
        return new FedBbptState(0, new int[0], new double[0][], 0);
    }

    @Override
    public Downlink configure(MethodState global, int round) {
        FedBbptState state = (FedBbptState) global;
        if (state.round() != round) {
            throw new IllegalArgumentException("the global state is after round " + state.round()
                    + ", asked to configure round " + round);
        }
        return state;
    }

    @Override
    public ClientProcedure client(Downlink downlink, ClientTask task) {
        return new BbptClient(config, (FedBbptState) downlink, task);
    }

    @Override
    public FedBbptState aggregate(MethodState global, List<Upload> uploads) {
        FedBbptState state = (FedBbptState) global;
        List<Upload> sorted = new ArrayList<>(uploads);
        sorted.sort(Comparator.comparingInt(Upload::clientId));
        if (!state.hasCandidates()) {
            List<CountsUpload> counts = sorted.stream().map(u -> (CountsUpload) u).toList();
            int[] candidates = PmiCandidates.choose(TokenCounts.pool(counts), config.candidates(),
                    config.pmiThreshold(), config.minCount());
            double[][] theta = candidates.length == 0 ? new double[0][]
                    : Matrices.filled(config.promptLength(), candidates.length, 1.0 / candidates.length);
            return new FedBbptState(state.round() + 1, candidates, theta, state.apiCalls());
        }
        int n = state.promptLength();
        int count = state.candidates().length;
        long calls = 0;
        for (Upload u : sorted) {
            calls += ((ThetaUpload) u).apiCalls();
        }
        if (sorted.isEmpty()) {
            return new FedBbptState(state.round() + 1, state.candidates(), state.theta(), state.apiCalls());
        }
        double[] weights = new double[sorted.size()];
        double totalSamples = 0;
        for (Upload u : sorted) {
            totalSamples += u.sampleCount();
        }
        for (int k = 0; k < weights.length; k++) {
            weights[k] = config.weights() == FedBbptConfig.Weights.SAMPLES
                    ? sorted.get(k).sampleCount() / totalSamples : 1.0 / sorted.size();
        }
        double[][] average = new double[n][count];
        for (int k = 0; k < sorted.size(); k++) {
            double[][] theta = ((ThetaUpload) sorted.get(k)).theta();
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < count; j++) {
                    average[i][j] += weights[k] * theta[i][j];
                }
            }
        }
        return new FedBbptState(state.round() + 1, state.candidates(), average, state.apiCalls() + calls);
    }

    @Override
    public String screen(MethodState global, Upload upload) {
        FedBbptState state = (FedBbptState) global;
        if (!state.hasCandidates()) {
            return upload instanceof CountsUpload ? null : "the counts round takes token counts, not "
                    + upload.getClass().getSimpleName();
        }
        if (!(upload instanceof ThetaUpload u)) {
            return "a training round takes theta, not " + upload.getClass().getSimpleName();
        }
        int n = state.promptLength();
        int count = state.candidates().length;
        if (!Matrices.isRectangular(u.theta(), n, count)) {
            return "theta must be " + n + " x " + count;
        }
        for (int i = 0; i < n; i++) {
            double sum = 0;
            for (double x : u.theta()[i]) {
                if (!Double.isFinite(x)) {
                    return "non-finite entry " + x + " in theta row " + i;
                }
                if (x < 0) {
                    return "negative entry " + x + " in theta row " + i;
                }
                sum += x;
            }
            if (Math.abs(sum - 1) > Simplex.TOLERANCE) {
                return "theta row " + i + " sums to " + sum + ", not 1 within " + Simplex.TOLERANCE;
            }
        }
        return null;
    }

    /**
     * The argmax candidate per position (ties: the lowest index, as torch's argmax), or null before the candidates
     * exist: after the counts round there is no prompt, and the model is scored as zero-shot.
     */
    @Override
    public Prompt evaluationPrompt(MethodState global) {
        FedBbptState state = (FedBbptState) global;
        if (!state.hasCandidates()) {
            return null;
        }
        int[] ids = new int[state.promptLength()];
        for (int i = 0; i < ids.length; i++) {
            double[] row = state.theta()[i];
            int best = 0;
            for (int j = 1; j < row.length; j++) {
                if (row[j] > row[best]) {
                    best = j;
                }
            }
            ids[i] = state.candidates()[best];
        }
        return new Prompt.Tokens(ids);
    }

    /** "api_calls" (total of the accepted uploads), "mean_max_probability" (0 without theta), "candidates" (N). */
    @Override
    public Map<String, Double> metrics(MethodState global) {
        FedBbptState state = (FedBbptState) global;
        double maxSum = 0;
        for (double[] row : state.theta()) {
            double max = 0;
            for (double x : row) {
                max = Math.max(max, x);
            }
            maxSum += max;
        }
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("api_calls", (double) state.apiCalls());
        metrics.put("mean_max_probability", state.promptLength() == 0 ? 0.0 : maxSum / state.promptLength());
        metrics.put("candidates", (double) state.candidates().length);
        return metrics;
    }
}
