package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.TaskMetric;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.HeldApart;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.random.Purpose;

import java.util.ArrayList;
import java.util.List;

/**
 * A client's personalisation round (Appendix B): BBT from the global prompt P', CMA-ES over z with mean 0 and
 * sigma 0.1, for budget / population generations. Under {@code rows = held-apart} (the paper's) the fitness is the
 * loss of P' + A z on the client's post-tuning rows, and as BBT's code does (bbt.py, eval_every) the candidate just
 * scored at every eval-every-th forward call is scored on the client's dev rows; the first with the highest dev
 * accuracy (strictly higher replaces it) is the personal prompt, and before any dev evaluation z = 0. Under
 * {@code rows = training} the fitness is on the client's own training rows and the best-loss z is the personal prompt.
 * Then one request scores the personal prompt and P' alone on the client's own test rows (the test rows are read only
 * here, after tuning has ended). Requests count from 0 in the order they are made (dev evaluations among them).
 */
final class PostTuning implements ClientProcedure {
    private final Projection projection;
    private final float[][] base;
    private final ClientTask task;
    private final ZSearch search;
    private final int population;
    private final int evalEvery;
    private final LocalData dev;
    private final List<double[]> toEvaluate = new ArrayList<>();
    private List<double[]> evaluating;
    private double[] bestDevZ;
    private int bestDevCorrect = -1;
    private int devEvaluations;
    private int requests;
    private ScorePrompts pending;
    private boolean tested;
    private int tunedCorrect;
    private int globalCorrect;

    PostTuning(DlsEcConfig.PostTuning settings, Projection projection, float[][] base, ClientTask task) {
        if (task.test() == null) {
            throw new IllegalStateException("client " + task.clientId() + " has no test rows of its own: a "
                    + "personalisation round scores each client on its own test data");
        }
        boolean heldApart = settings.rows() == DlsEcConfig.Rows.HELD_APART;
        HeldApart rows = task.heldApart();
        if (heldApart && rows == null) {
            throw new IllegalStateException("client " + task.clientId() + " has no held-apart rows: "
                    + "dls-ec.post-tuning.rows = held-apart post-tunes on rows drawn apart from the training data");
        }
        this.projection = projection;
        this.base = base;
        this.task = task;
        population = settings.population();
        evalEvery = heldApart ? settings.evalEvery() : 0;
        dev = heldApart ? rows.dev() : null;
        double[] start = new double[projection.dimension()];
        bestDevZ = start.clone();
        search = new ZSearch(projection, base, start, settings.sigma(), population,
                settings.budget() / population, task, heldApart ? rows.train() : task.data(),
                Purpose.DLSEC_POST_TUNING, task.clientId());
    }

    @Override
    public Step next() {
        if (tested) {
            return new Finished(new PersonalResult(task.round(), task.clientId(), search.bestLoss(),
                    search.rows().size(), task.participant(), tunedCorrect, globalCorrect, task.test().size()),
                    new PersonalPrompt(tunedZ()));
        }
        if (pending == null) {
            if (!toEvaluate.isEmpty()) {
                pending = devRequest();
            } else if (search.done()) {
                pending = testRequest();
            } else {
                ScorePrompts generation = search.request();
                pending = new ScorePrompts(requests, generation.prompts(), generation.rows());
            }
            requests++;
        }
        return pending;
    }

    /** The z tested: the best on dev under held-apart, else the best on the rows fitted. */
    private double[] tunedZ() {
        return dev != null ? bestDevZ.clone() : search.bestZ();
    }

    /** The candidates due for a dev evaluation, in the order their forward calls came, on the dev rows at once. */
    private ScorePrompts devRequest() {
        evaluating = List.copyOf(toEvaluate);
        toEvaluate.clear();
        List<Prompt> prompts = new ArrayList<>(evaluating.size());
        for (double[] z : evaluating) {
            prompts.add(new Prompt.Embeddings(projection.apply(base, z)));
        }
        return new ScorePrompts(requests, prompts, dev.tokenIds());
    }

    private ScorePrompts testRequest() {
        return new ScorePrompts(requests, List.of(
                new Prompt.Embeddings(projection.apply(base, tunedZ())), new Prompt.Embeddings(base)),
                task.test().tokenIds());
    }

    @Override
    public void onScores(float[][][] scores) {
        ClientProcedure.checkShape(pending, scores);
        if (evaluating != null) {
            for (int k = 0; k < scores.length; k++) {
                int correct = correct(scores[k], dev);
                devEvaluations++;
                if (correct > bestDevCorrect) { // strict: on a tie the earlier prompt stays, as BBT's
                    bestDevCorrect = correct;
                    bestDevZ = evaluating.get(k);
                }
            }
            evaluating = null;
        } else if (!search.done()) {
            int callsBefore = search.generation() * population;
            search.onScores(scores);
            if (dev != null) {
                // Forward calls callsBefore + 1 .. callsBefore + population were this generation's candidates.
                for (int call = callsBefore + 1; call <= callsBefore + scores.length; call++) {
                    if (call % evalEvery == 0) {
                        toEvaluate.add(search.candidate(call - callsBefore - 1));
                    }
                }
            }
        } else {
            tunedCorrect = correct(scores[0], task.test());
            globalCorrect = correct(scores[1], task.test());
            tested = true;
        }
        pending = null;
    }

    /** Dev evaluations made so far (one per candidate scored on the dev rows). */
    int devEvaluations() {
        return devEvaluations;
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
