package dev.fedbpt.engine.fedbbpt;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Shuffle;
import dev.fedbpt.engine.method.Losses;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * One client's round of federated BDPL, as a state machine. In the counts round (no candidates yet) it finishes at
 * once with its {@link TokenCounts} and asks for no scores. Otherwise it runs one local epoch from the downlink's
 * theta: its rows in a seeded shuffled order (BDPL's DataLoader shuffles every epoch, run_glue_discrete_LM.py:500),
 * cut into minibatches of {@code batchSize} (the last one shorter); per minibatch one step of
 * run_glue_discrete_LM.py:558-623:
 * <ol>
 *   <li>sample I prompts, each position's candidate index from Cat(theta[i]) (normalised by the row sum, as torch's
 *       Categorical does);</li>
 *   <li>ask for the scores of the I prompts on the minibatch: I API calls (one prompt on one batch is one call);</li>
 *   <li>L_k = mean cross-entropy of the class scores; the VR-PGE gradient, clipped ({@link VrPge}); an AdamW step
 *       ({@link AdamW}); each row back onto the simplex ({@link Simplex}).</li>
 * </ol>
 *
 * <p>The API budget is per client over the run (kept in {@link ClientOptimizerState}), as BDPL's single counter is
 * per run. BDPL checks it after every call and, on reaching it, raises before the update (:605-606, caught at :630),
 * so the step during which the budget is reached is scored but not applied and the client stops; we do the same, and
 * such a step asks only for the calls left (BDPL stops calling at the limit). A client whose budget is spent uploads
 * the downlink's theta with no calls.
 *
 * <p>Non-finite losses: BDPL would average them into every entry of the gradient and theta would turn NaN. Here a
 * step with a non-finite loss (or, with theta entries so small that 1/theta overflows, a non-finite gradient) is
 * skipped: its calls count, theta and the moments stay, each non-finite loss counts in {@link #nonFiniteCount()}.
 *
 * <p>Random draws: the shuffle from Rng.of(seed, FEDBBPT_SHUFFLE, round, clientId), the prompts of step s from
 * Rng.of(seed, FEDBBPT_SAMPLING, round, clientId, s).
 */
public final class BbptClient implements ClientProcedure {
    private final FedBbptConfig config;
    private final LocalData data;
    private final long seed;
    private final int round;
    private final int clientId;
    private final int[] candidates;
    private final double[][] theta;
    private final double[][] m;
    private final double[][] v;
    private final int[] order;
    private final int batches;
    private long adamSteps;
    private long apiUsed;
    private int roundCalls;
    private double lastLoss;
    private int step;
    private int nonFinite;
    private Step pending;
    private int[][] samples;  // of the pending request: [k][position]
    private int[] batchLabels; // of the pending request

    public BbptClient(FedBbptConfig config, FedBbptState downlink, ClientTask task) {
        if (config == null || downlink == null || task == null) {
            throw new IllegalArgumentException("config, downlink and task must not be null");
        }
        if (downlink.round() != task.round()) {
            throw new IllegalArgumentException("downlink for round " + downlink.round() + ", task for round "
                    + task.round());
        }
        this.config = config;
        this.data = task.data();
        this.seed = task.seed();
        this.round = task.round();
        this.clientId = task.clientId();
        this.candidates = downlink.candidates();
        if (!downlink.hasCandidates()) {
            pending = new Finished(TokenCounts.count(round, clientId, data, task.vocabulary()), null);
            theta = m = v = null;
            order = null;
            batches = 0;
            return;
        }
        int n = downlink.promptLength();
        int count = candidates.length;
        this.theta = Matrices.copy(downlink.theta());
        ClientOptimizerState memory = task.memory() instanceof ClientOptimizerState s ? s : null;
        if (task.memory() != null && memory == null) {
            throw new IllegalArgumentException("client " + clientId + " kept a " + task.memory().getClass().getName()
                    + ", not a " + FedBbptPayloads.NAME + " memory");
        }
        boolean keep = config.adamState() == FedBbptConfig.AdamState.PERSIST && memory != null
                && memory.firstMoment().length > 0;
        if (keep && !(Matrices.isRectangular(memory.firstMoment(), n, count)
                && Matrices.isRectangular(memory.secondMoment(), n, count))) {
            throw new IllegalArgumentException("client " + clientId + "'s AdamW moments do not have theta's shape "
                    + n + " x " + count);
        }
        this.m = keep ? Matrices.copy(memory.firstMoment()) : new double[n][count];
        this.v = keep ? Matrices.copy(memory.secondMoment()) : new double[n][count];
        this.adamSteps = keep ? memory.adamSteps() : 0;
        this.apiUsed = memory == null ? 0 : memory.apiCalls();
        this.lastLoss = memory == null ? Double.NaN : memory.lastLoss();
        this.order = Shuffle.permutation(data.size(), Rng.of(seed, Purpose.FEDBBPT_SHUFFLE, round, clientId));
        this.batches = (data.size() + config.batchSize() - 1) / config.batchSize();
        this.pending = prepareStep();
    }

    @Override
    public Step next() {
        return pending;
    }

    @Override
    public int nonFiniteCount() {
        return nonFinite;
    }

    @Override
    public void onScores(float[][][] scores) {
        if (!(pending instanceof ScorePrompts request)) {
            throw new IllegalStateException("client " + clientId + " round " + round + " expects no scores");
        }
        int count = samples.length;
        checkShape(scores, count, request.rows().size());
        double[] losses = new double[count];
        int bad = 0;
        for (int k = 0; k < count; k++) {
            losses[k] = Losses.meanCrossEntropy(scores[k], batchLabels, data.numClasses());
            if (!Double.isFinite(losses[k])) {
                bad++;
            }
        }
        apiUsed += count;
        roundCalls += count;
        nonFinite += bad;
        if (bad == 0) {
            double sum = 0;
            for (double loss : losses) {
                sum += loss;
            }
            lastLoss = sum / count;
        }
        if (apiUsed >= config.apiCallBudget()) {
            // run_glue_discrete_LM.py:605-606: the call that reaches the limit raises before the update (:610-623)
            pending = finish();
            return;
        }
        if (bad == 0) {
            double[][] g = VrPge.gradient(theta, samples, losses);
            if (VrPge.finite(g)) {
                VrPge.clip(g, config.clipNorm());
                adamSteps++;
                AdamW.step(theta, g, m, v, adamSteps, config.learningRate(), config.weightDecay());
                Simplex.projectRows(theta);
            } else {
                nonFinite++;
            }
        }
        step++;
        pending = prepareStep();
    }

    /** The next minibatch's request, or the upload when the epoch or the budget is done. */
    private Step prepareStep() {
        long left = config.apiCallBudget() - apiUsed;
        if (step >= batches || left <= 0) {
            return finish();
        }
        int count = (int) Math.min(config.samples(), left);
        RandomGenerator rng = Rng.of(seed, Purpose.FEDBBPT_SAMPLING, round, clientId, step);
        samples = new int[count][];
        List<Prompt> prompts = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            samples[k] = samplePrompt(theta, rng);
            int[] ids = new int[samples[k].length];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = candidates[samples[k][i]];
            }
            prompts.add(new Prompt.Tokens(ids));
        }
        int from = step * config.batchSize();
        int to = Math.min(data.size(), from + config.batchSize());
        List<int[]> rows = new ArrayList<>(to - from);
        batchLabels = new int[to - from];
        for (int r = from; r < to; r++) {
            rows.add(data.tokenIds().get(order[r]));
            batchLabels[r - from] = data.labels()[order[r]];
        }
        return new ScorePrompts(step, prompts, rows);
    }

    private Finished finish() {
        samples = null;
        batchLabels = null;
        boolean keep = config.adamState() == FedBbptConfig.AdamState.PERSIST;
        ThetaUpload upload = new ThetaUpload(round, clientId, lastLoss, data.size(), theta, roundCalls);
        ClientOptimizerState memory = new ClientOptimizerState(keep ? m : new double[0][], keep ? v : new double[0][],
                keep ? adamSteps : 0, apiUsed, lastLoss);
        return new Finished(upload, memory);
    }

    /** One candidate index per position, each from Cat(theta[i]). */
    static int[] samplePrompt(double[][] theta, RandomGenerator rng) {
        int[] out = new int[theta.length];
        for (int i = 0; i < theta.length; i++) {
            out[i] = sampleCategorical(theta[i], rng);
        }
        return out;
    }

    /** An index j with probability row[j] / sum(row); entries <= 0 are never drawn. */
    static int sampleCategorical(double[] row, RandomGenerator rng) {
        double total = 0;
        for (double p : row) {
            if (p > 0) {
                total += p;
            }
        }
        if (!(total > 0) || !Double.isFinite(total)) {
            throw new IllegalArgumentException("a row of theta has no positive finite mass");
        }
        double u = rng.nextDouble() * total;
        double cumulative = 0;
        int last = -1;
        for (int j = 0; j < row.length; j++) {
            if (row[j] > 0) {
                cumulative += row[j];
                last = j;
                if (u < cumulative) {
                    return j;
                }
            }
        }
        return last; // u rounded up to the total
    }



    private void checkShape(float[][][] scores, int count, int rows) {
        if (scores == null || scores.length != count) {
            throw new IllegalArgumentException("scores must have " + count + " prompts, had "
                    + (scores == null ? "null" : scores.length));
        }
        for (int k = 0; k < count; k++) {
            if (scores[k] == null || scores[k].length != rows) {
                throw new IllegalArgumentException("scores[" + k + "] must have " + rows + " rows, had "
                        + (scores[k] == null ? "null" : scores[k].length));
            }
            for (int r = 0; r < rows; r++) {
                if (scores[k][r] == null || scores[k][r].length != data.numClasses()) {
                    throw new IllegalArgumentException("scores[" + k + "][" + r + "] must have "
                            + data.numClasses() + " class scores");
                }
            }
        }
    }
}
