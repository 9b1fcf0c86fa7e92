package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PreRestart;
import akka.actor.typed.javadsl.Behaviors;
import dev.fedbpt.inference.ScoreRow;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns a model session and runs one batch at a time. A batch that throws restarts the worker (the session itself is
 * kept: it is created outside the restarted behaviour) and the pool is told, so it re-queues the batch.
 */
public final class InferenceWorker {
    private static final Logger LOG = LoggerFactory.getLogger(InferenceWorker.class);

    public sealed interface Command {}

    /** {@code retry}: the batch holds rows of a batch that failed before (injected crashes spare it). */
    public record RunBatch(long batchId, List<ScoreRow> rows, boolean retry) implements Command {}

    private InferenceWorker() {}

    public static Behavior<Command> create(int index, RowScorer scorer, ActorRef<InferencePool.Command> pool,
                                           FaultInjector faults) {
        Behavior<Command> worker = Behaviors.receive(Command.class)
                .onMessage(RunBatch.class, batch -> onRunBatch(index, scorer, pool, faults, batch))
                .onSignal(PreRestart.class, signal -> {
                    pool.tell(new InferencePool.WorkerRestarted(index));
                    return Behaviors.same();
                })
                .build();
        return FaultInjector.restartOnFailure(worker);
    }

    private static Behavior<Command> onRunBatch(int index, RowScorer scorer, ActorRef<InferencePool.Command> pool,
                                                FaultInjector faults, RunBatch batch) {
        if (!batch.retry() && faults.workerCrashes(index, batch.batchId())) {
            String what = "injected fault: worker " + index + " fails on batch " + batch.batchId();
            LOG.warn(what);
            throw new FaultInjector.InjectedFault(what);
        }
        float[][] scores = scorer.score(batch.rows());
        if (scores.length != batch.rows().size()) {
            throw new IllegalStateException("scorer returned " + scores.length + " rows for a batch of "
                    + batch.rows().size());
        }
        corrupt(index, faults, batch, scores);
        pool.tell(new InferencePool.BatchDone(index, batch.batchId(), scores));
        return Behaviors.same();
    }

    private static void corrupt(int index, FaultInjector faults, RunBatch batch, float[][] scores) {
        int corrupted = 0;
        for (int i = 0; i < scores.length; i++) {
            Float value = faults.corruptedScore(batch.rows().get(i));
            if (value != null) {
                scores[i] = scores[i].clone();
                Arrays.fill(scores[i], value);
                corrupted++;
            }
        }
        if (corrupted > 0) {
            LOG.warn("injected fault: worker {} returns {} of {} rows of batch {} as NaN/infinity", index, corrupted,
                    scores.length, batch.batchId());
        }
    }
}
