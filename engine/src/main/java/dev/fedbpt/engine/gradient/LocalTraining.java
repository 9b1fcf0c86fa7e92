package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Shuffle;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.ArrayList;
import java.util.List;

/**
 * One client's local work in a round of a gradient method: {@code epochs} passes over its rows in minibatches, the
 * order of each epoch a seeded permutation (seed, client, round, epoch), one AdamW step per minibatch on the clipped
 * gradient. The parameters are rounded to float32 after every step, as a float32 model holds them. A step whose
 * loss or gradient is not finite is skipped and counted. What the client then sends and keeps is the method's
 * ({@link Finish}).
 */
public final class LocalTraining implements ClientProcedure {
    /** The round's end: the upload and memory from the final parameters, the mean loss and the steps taken. */
    public interface Finish {
        Finished finish(double[] params, double meanLoss, int steps);
    }

    private final Parameterisation parameterisation;
    /** The parameters of the pending gradient, mapped to its prompt. */
    private Parameterisation.Mapped mapped;
    private final GradientConfig config;
    private final ClientTask task;
    private final double[] params;
    private final AdamW adam;
    private final List<int[]> batches = new ArrayList<>();
    private int next;
    private double lossSum;
    private int lossCount;
    private int nonFinite;
    private Step pending;

    private final Finish finish;

    /**
     * @param start the parameters to train, in place
     * @param adam  the optimiser (fresh, or the moments a client kept from its previous round)
     */
    public LocalTraining(Parameterisation parameterisation, GradientConfig config, double[] start, AdamW adam, ClientTask task,
                         Finish finish) {
        this.parameterisation = parameterisation;
        this.config = config;
        this.task = task;
        this.params = start;
        this.adam = adam;
        this.finish = finish;
        int n = task.data().size();
        for (int epoch = 0; epoch < config.localEpochs(); epoch++) {
            int[] order = Shuffle.permutation(n, Rng.of(task.seed(), Purpose.GRADIENT_SHUFFLE, task.clientId(), task.round(),
                    epoch));
            for (int from = 0; from < n; from += config.batchSize()) {
                int[] batch = new int[Math.min(config.batchSize(), n - from)];
                System.arraycopy(order, from, batch, 0, batch.length);
                batches.add(batch);
            }
        }
    }

    @Override
    public Step next() {
        if (pending != null) return pending;
        if (next < batches.size()) {
            LocalData data = task.data();
            int[] batch = batches.get(next);
            List<int[]> rows = new ArrayList<>(batch.length);
            int[] labels = new int[batch.length];
            for (int k = 0; k < batch.length; k++) {
                rows.add(data.tokenIds().get(batch[k]));
                labels[k] = data.labels()[batch[k]];
            }
            mapped = parameterisation.map(params);
            pending = new ComputeGradient(next, mapped.prompt(), rows, labels);
        } else {
            pending = finish.finish(params, lossCount == 0 ? Double.NaN : lossSum / lossCount, lossCount);
        }
        return pending;
    }

    @Override
    public void onGradient(Gradient gradient) {
        if (!(pending instanceof ComputeGradient)) {
            throw new IllegalStateException("no gradient is pending");
        }
        double[] g = mapped.gradient(gradient);
        if (g.length != params.length) {
            throw new IllegalArgumentException("a gradient of " + g.length + " values for " + params.length
                    + " parameters");
        }
        pending = null;
        next++;
        if (!Double.isFinite(gradient.loss()) || !Double.isFinite(AdamW.clip(g, config.clipNorm()))) {
            nonFinite++;
            return;
        }
        lossSum += gradient.loss();
        lossCount++;
        adam.step(params, g);
        for (int i = 0; i < params.length; i++) params[i] = (float) params[i];
    }

    @Override
    public void onScores(float[][][] scores) {
        throw new IllegalStateException("no scores are pending: a gradient method asks for gradients");
    }

    @Override
    public int nonFiniteCount() {
        return nonFinite;
    }
}
