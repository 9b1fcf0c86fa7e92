package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.TaskMetric;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.random.Purpose;

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
    private final ZSearch search;
    private ScorePrompts pending;
    private boolean tested;
    private int tunedCorrect;
    private int globalCorrect;

    PostTuning(DlsEcConfig.PostTuning settings, Projection projection, float[][] base, ClientTask task) {
        if (task.test() == null) {
            throw new IllegalStateException("client " + task.clientId() + " has no test rows of its own: a "
                    + "personalisation round scores each client on its own test data");
        }
        this.projection = projection;
        this.base = base;
        this.task = task;
        search = new ZSearch(projection, base, new double[projection.dimension()], settings.sigma(),
                settings.population(), settings.budget() / settings.population(), task, Purpose.DLSEC_POST_TUNING,
                task.clientId());
    }

    @Override
    public Step next() {
        if (tested) {
            return new Finished(new PersonalResult(task.round(), task.clientId(), search.bestLoss(),
                    task.data().size(), task.participant(), tunedCorrect, globalCorrect, task.test().size()),
                    new PersonalPrompt(search.bestZ()));
        }
        if (pending == null) {
            pending = search.done() ? testRequest() : search.request();
        }
        return pending;
    }

    private ScorePrompts testRequest() {
        return new ScorePrompts(search.generation(), List.of(
                new Prompt.Embeddings(projection.apply(base, search.bestZ())), new Prompt.Embeddings(base)),
                task.test().tokenIds());
    }

    @Override
    public void onScores(float[][][] scores) {
        ClientProcedure.checkShape(pending, scores);
        if (!search.done()) {
            search.onScores(scores);
        } else {
            tunedCorrect = correct(scores[0], task.test());
            globalCorrect = correct(scores[1], task.test());
            tested = true;
        }
        pending = null;
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
        return search.nonFiniteCount();
    }
}
