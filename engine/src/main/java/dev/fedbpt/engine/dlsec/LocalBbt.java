package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Fp16;
import dev.fedbpt.engine.random.Purpose;

/**
 * BBT(Fed)'s client round: CMA-ES over z from the global z (sigma and population BBT's), one generation per local
 * step (20 queries each, against DLS-EC's K = 5), then the final mean uploaded in fp16.
 */
final class LocalBbt implements ClientProcedure {
    private final ClientTask task;
    private final ZSearch search;
    private ScorePrompts pending;

    LocalBbt(Projection projection, float[][] base, double[] start, double sigma, int population, int generations,
             ClientTask task) {
        this.task = task;
        search = new ZSearch(projection, base, start, sigma, population, generations, task, Purpose.BBT_SEARCH,
                task.round(), task.clientId());
    }

    @Override
    public Step next() {
        if (search.done()) {
            double[] mean = search.mean();
            float[] z = new float[mean.length];
            for (int i = 0; i < z.length; i++) {
                z[i] = Fp16.round(mean[i]);
            }
            return new Finished(new ZUpload(task.round(), task.clientId(), search.bestLoss(), task.data().size(), z),
                    null);
        }
        if (pending == null) {
            pending = search.request();
        }
        return pending;
    }

    @Override
    public void onScores(float[][][] scores) {
        ClientProcedure.checkShape(pending, scores);
        search.onScores(scores);
        pending = null;
    }

    @Override
    public int nonFiniteCount() {
        return search.nonFiniteCount();
    }
}
