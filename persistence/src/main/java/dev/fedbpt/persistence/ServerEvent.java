package dev.fedbpt.persistence;

import java.util.Map;

import dev.fedbpt.engine.method.ClientMemory;
import dev.fedbpt.engine.method.Upload;

/**
 * What the server's journal records: facts, never derived state. Replaying them through
 * {@link ServerState#apply} with the same method rebuilds the exact server state, so the (possibly large) global
 * state is stored only in snapshots.
 */
public sealed interface ServerEvent extends CborSerializable {

    /** First event of every run: the configuration it belongs to, so a resume with another one is refused. */
    record ExperimentStarted(String configHash) implements ServerEvent {}

    /** Round {@code round} (1-based) opened, attempt {@code attempt} (re-sampling makes attempts > 1). */
    record RoundOpened(int round, int attempt, int[] sampled) implements ServerEvent {}

    /** A client's upload, and what it keeps for its next round (null: nothing). */
    record ResultAccepted(int round, Upload upload, ClientMemory memory) implements ServerEvent {}

    record ClientDropped(int round, int clientId, String reason) implements ServerEvent {}

    /**
     * Measurements (rows scored, wall time, incidents) are facts of the live run; the new global state is derived
     * from the accepted results.
     */
    record RoundClosed(int round, long forwardRows, long wallMs, RoundIncidents incidents) implements ServerEvent {
        public RoundClosed {
            incidents = incidents == null ? RoundIncidents.NONE : incidents;
        }
    }

    /**
     * Test accuracy of the global prompt after {@code round} rounds (round 0 is the zero-shot baseline), and the
     * task's other metrics by name (F1, MCC; empty for tasks scored by accuracy alone, and in journals written
     * before tasks had them), the confusion matrix the scores came from (empty in journals written before it
     * was kept), and the evaluation's wall time, a measurement like a round's (null in journals written before it
     * was kept).
     */
    record PromptEvaluated(int round, double accuracy, Map<String, Double> taskMetrics, Confusion confusion,
                           Long wallMs) implements ServerEvent {
        public PromptEvaluated {
            taskMetrics = RoundSummary.ordered(taskMetrics);
            confusion = Confusion.orEmpty(confusion);
        }
    }

    record ExperimentFinished(int roundsCompleted) implements ServerEvent {}
}
