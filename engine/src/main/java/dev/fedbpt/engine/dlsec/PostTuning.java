package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.cmaes.Cmaes;
import dev.fedbpt.engine.cmaes.CmaesParameters;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.TaskMetric;
import dev.fedbpt.engine.fedbpt.Losses;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;

import java.util.ArrayList;
import java.util.List;

/**
 * A client's personalisation round (Appendix B): BBT from the global prompt P', CMA-ES over z with mean 0 and
 * sigma 0.1, fitness the loss of P' + A z on the client's own training rows, for budget / population generations;
 * the best z seen is its personal prompt. Then one request scores the personal prompt and P' alone on the client's
 * own test rows (the test rows are read only here, after tuning has ended).
 */
final class PostTuning implements ClientProcedure {
    private final Projection projection;
    private final float[][] base;
    private final ClientTask task;
    private final Cmaes cmaes;
    private final int generations;
    private int generation;
    private double[][] candidates;
    private ScorePrompts pending;
    private double[] bestZ;
    private double bestLoss = Double.POSITIVE_INFINITY;
    private boolean tested;
    private int tunedCorrect;
    private int globalCorrect;
    private int nonFinite;

    PostTuning(DlsEcConfig.PostTuning settings, Projection projection, float[][] base, ClientTask task) {
        if (task.test() == null) {
            throw new IllegalStateException("client " + task.clientId() + " has no test rows of its own: DLS-EC's "
                    + "personalisation round scores each client on its own test data (data.split = domains)");
        }
        this.projection = projection;
        this.base = base;
        this.task = task;
        int d = projection.dimension();
        cmaes = new Cmaes(CmaesState.initial(new double[d], settings.sigma()),
                CmaesParameters.standard(d, settings.population()));
        generations = settings.budget() / settings.population();
        bestZ = new double[d];
    }

    @Override
    public Step next() {
        if (tested) {
            return new Finished(new PersonalResult(task.round(), task.clientId(), bestLoss, task.data().size(),
                    task.participant(), tunedCorrect, globalCorrect, task.test().size()), new PersonalPrompt(bestZ));
        }
        if (pending == null) {
            pending = generation < generations ? searchRequest() : testRequest();
        }
        return pending;
    }

    private ScorePrompts searchRequest() {
        candidates = cmaes.ask(Rng.of(task.seed(), Purpose.DLSEC_POST_TUNING, task.clientId(), generation));
        List<Prompt> prompts = new ArrayList<>(candidates.length);
        for (double[] z : candidates) {
            prompts.add(new Prompt.Embeddings(projection.apply(base, z)));
        }
        return new ScorePrompts(generation, prompts, task.data().tokenIds());
    }

    private ScorePrompts testRequest() {
        return new ScorePrompts(generation, List.of(new Prompt.Embeddings(projection.apply(base, bestZ)),
                new Prompt.Embeddings(base)), task.test().tokenIds());
    }

    @Override
    public void onScores(float[][][] scores) {
        ClientProcedure.checkShape(pending, scores);
        if (generation < generations) {
            onFitness(scores);
        } else {
            tunedCorrect = correct(scores[0], task.test());
            globalCorrect = correct(scores[1], task.test());
            tested = true;
        }
        pending = null;
    }

    private void onFitness(float[][][] scores) {
        double[] fitness = new double[scores.length];
        for (int k = 0; k < scores.length; k++) {
            double loss = Losses.meanCrossEntropy(scores[k], task.data().labels(), task.data().numClasses());
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

    private static int correct(float[][] scores, LocalData rows) {
        int correct = 0;
        for (int r = 0; r < scores.length; r++) {
            if (TaskMetric.predicted(scores[r]) == rows.labels()[r]) {
                correct++;
            }
        }
        return correct;
    }

    @Override
    public int nonFiniteCount() {
        return nonFinite;
    }
}
