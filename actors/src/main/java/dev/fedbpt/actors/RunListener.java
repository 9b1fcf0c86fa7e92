package dev.fedbpt.actors;

import dev.fedbpt.persistence.Confusion;
import dev.fedbpt.persistence.RoundSummary;
import dev.fedbpt.persistence.ServerState;
import java.util.List;
import java.util.Map;

/** What the server tells the outside world: output files and progress lines. Called on the server's thread. */
public interface RunListener {
    /** After recovery: the rounds whose summaries are final (the run folder's metrics are rewritten from them). */
    void onRecovered(ServerState state, List<RoundSummary> finalRounds);

    /**
     * The prompt-free evaluation: accuracy, the task's other metrics (F1, MCC; often none) and how the rows were
     * classified.
     */
    void onZeroShot(double accuracy, Map<String, Double> taskMetrics, Confusion confusion);

    /** How far the test evaluation after a round (0: before the first) has come. */
    default void onEvaluationProgress(Evaluator.Progress progress) {}

    void onRoundCompleted(RoundSummary summary, ServerState state);

    void onFinished(ServerState state);

    void onFailed(String reason);

    /** The run folder cannot be continued as given (bad input, e.g. a damaged journal); nothing was written. */
    void onRefused(String reason);
}
