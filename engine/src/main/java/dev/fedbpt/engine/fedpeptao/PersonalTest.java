package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.data.TaskMetric;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Prompt;

/**
 * A device's personalisation round: one request scores its prefix (its own layers, the global selected ones) on its
 * own test rows; it keeps what it held.
 */
final class PersonalTest implements ClientProcedure {
    private final ClientTask task;
    private final ScorePrompts request;
    private int correct = -1;

    PersonalTest(Prompt.Deep prompt, ClientTask task) {
        if (task.test() == null) {
            throw new IllegalStateException("client " + task.clientId() + " has no test rows of its own: a "
                    + "personalisation round scores each client on its own test data");
        }
        this.task = task;
        this.request = new ScorePrompts(0, java.util.List.of(prompt), task.test().tokenIds());
    }

    @Override
    public Step next() {
        if (correct < 0) return request;
        return new Finished(new PersonalAccuracy(task.round(), task.clientId(), 0.0, task.data().size(),
                task.participant(), correct, task.test().size()), task.memory());
    }

    @Override
    public void onScores(float[][][] scores) {
        ClientProcedure.checkShape(correct < 0 ? request : null, scores);
        int right = 0;
        for (int r = 0; r < scores[0].length; r++) {
            if (TaskMetric.predicted(scores[0][r]) == task.test().labels()[r]) right++;
        }
        correct = right;
    }

    @Override
    public int nonFiniteCount() {
        return 0;
    }
}
