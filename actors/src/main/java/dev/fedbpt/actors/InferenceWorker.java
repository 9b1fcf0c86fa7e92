package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PreRestart;
import akka.actor.typed.SupervisorStrategy;
import akka.actor.typed.javadsl.Behaviors;
import dev.fedbpt.inference.ScoreRow;
import java.util.List;

/**
 * Owns a model session and runs one batch at a time. A batch that throws restarts the worker (the session itself is
 * kept: it is created outside the restarted behaviour) and the pool is told, so it re-queues the batch.
 */
public final class InferenceWorker {
    public sealed interface Command {}

    public record RunBatch(long batchId, List<ScoreRow> rows) implements Command {}

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
        return Behaviors.supervise(worker).onFailure(Exception.class, SupervisorStrategy.restart());
    }

    private static Behavior<Command> onRunBatch(int index, RowScorer scorer, ActorRef<InferencePool.Command> pool,
                                                FaultInjector faults, RunBatch batch) {
        if (faults.workerCrashes(index, batch.batchId())) {
            throw new FaultInjector.InjectedFault("worker " + index + " fails on batch " + batch.batchId());
        }
        float[][] scores = scorer.score(batch.rows());
        if (scores.length != batch.rows().size()) {
            throw new IllegalStateException("scorer returned " + scores.length + " rows for a batch of "
                    + batch.rows().size());
        }
        pool.tell(new InferencePool.BatchDone(index, batch.batchId(), scores));
        return Behaviors.same();
    }
}
