package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.Losses;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * A client's round (Algorithm 3, Eq. 6-7): S steps, each at a random position t, scoring the K tokens nearest to
 * the position's vector by cosine in its place and keeping the best. With keep-current the position keeps its vector
 * when no candidate beats it (the paper's monotonicity, which holds only when the current vector is among the
 * candidates: not when it is P''s continuous row). Its loss is scored with the candidates, except on a full batch
 * where the previous step already knows it. Step s draws its position and minibatch from (seed, round, client, s).
 */
final class LocalSearch implements ClientProcedure {
    private final DlsEcConfig config;
    private final VocabularyIndex index;
    private final ClientTask task;
    private final float[][] prompt;
    private final int[] ids;
    private final boolean fullBatch;
    private int step;
    private ScorePrompts pending;
    private int pendingPosition;
    private int[] pendingCandidates;
    private boolean pendingHasCurrent;
    private int[] pendingLabels;
    /** Loss of the current prompt on the current batch, NaN when unknown. */
    private double currentLoss = Double.NaN;
    private double lastLoss = Double.NaN;
    private int nonFinite;

    LocalSearch(DlsEcConfig config, VocabularyIndex index, float[][] start, ClientTask task) {
        this.config = config;
        this.index = index;
        this.task = task;
        prompt = new float[start.length][];
        for (int t = 0; t < start.length; t++) {
            prompt[t] = start[t].clone();
        }
        ids = new int[start.length];
        Arrays.fill(ids, SearchUpload.SKIP);
        fullBatch = task.data().size() <= config.fullBatchUpTo();
    }

    @Override
    public Step next() {
        if (step == config.localSteps()) {
            return new Finished(new SearchUpload(task.round(), task.clientId(), lastLoss, task.data().size(),
                    ids.clone()), null);
        }
        if (pending == null) {
            pending = request();
        }
        return pending;
    }

    private ScorePrompts request() {
        RandomGenerator rng = Rng.of(task.seed(), Purpose.DLSEC_SEARCH, task.round(), task.clientId(), step);
        pendingPosition = rng.nextInt(prompt.length);
        int[] rows = fullBatch ? allRows() : minibatch(rng);
        pendingLabels = new int[rows.length];
        List<int[]> tokenRows = new ArrayList<>(rows.length);
        for (int i = 0; i < rows.length; i++) {
            tokenRows.add(task.data().tokenIds().get(rows[i]));
            pendingLabels[i] = task.data().labels()[rows[i]];
        }
        pendingCandidates = index.nearest(prompt[pendingPosition], config.candidates());
        pendingHasCurrent = config.keepCurrent() && Double.isNaN(currentLoss);
        List<Prompt> prompts = new ArrayList<>();
        if (pendingHasCurrent) {
            prompts.add(new Prompt.Embeddings(prompt.clone())); // rows are replaced, never written into
        }
        for (int c : pendingCandidates) {
            prompts.add(new Prompt.Embeddings(replaced(pendingPosition, index.embeddings().row(c))));
        }
        return new ScorePrompts(step, prompts, tokenRows);
    }

    private int[] allRows() {
        int[] rows = new int[task.data().size()];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = i;
        }
        return rows;
    }

    /** batch-size distinct rows (a partial Fisher-Yates shuffle), in the order drawn. */
    private int[] minibatch(RandomGenerator rng) {
        int[] order = allRows();
        int size = Math.min(config.batchSize(), order.length);
        for (int i = 0; i < size; i++) {
            int j = i + rng.nextInt(order.length - i);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return Arrays.copyOf(order, size);
    }

    private float[][] replaced(int position, float[] vector) {
        float[][] out = prompt.clone(); // rows shared: only the replaced one is new
        out[position] = vector;
        return out;
    }

    @Override
    public void onScores(float[][][] scores) {
        ClientProcedure.checkShape(pending, scores);
        double[] losses = new double[scores.length];
        for (int p = 0; p < scores.length; p++) {
            double loss = Losses.meanCrossEntropy(scores[p], pendingLabels, task.data().numClasses());
            if (!Double.isFinite(loss)) {
                nonFinite++;
                loss = Double.POSITIVE_INFINITY;
            }
            losses[p] = loss;
        }
        int first = pendingHasCurrent ? 1 : 0;
        int best = first;
        for (int p = first + 1; p < losses.length; p++) {
            if (losses[p] < losses[best]) {
                best = p;
            }
        }
        double current = pendingHasCurrent ? losses[0] : currentLoss;
        if (config.keepCurrent() && current <= losses[best]) {
            lastLoss = current;
        } else {
            int token = pendingCandidates[best - first];
            prompt[pendingPosition] = index.embeddings().row(token);
            ids[pendingPosition] = token;
            lastLoss = losses[best];
        }
        // On a full batch the next step scores the same rows, so the kept prompt's loss is known.
        currentLoss = fullBatch ? lastLoss : Double.NaN;
        pending = null;
        step++;
    }

    @Override
    public int nonFiniteCount() {
        return nonFinite;
    }
}
