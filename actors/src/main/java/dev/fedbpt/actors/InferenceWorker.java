package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PreRestart;
import akka.actor.typed.javadsl.Behaviors;
import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.PromptScorer;
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

    /**
     * One white-box unit, {@code request} answered whole by the worker's {@link RowScorer#units()}: a
     * {@link InferencePool.ScoreRows} with its scores, a {@link InferencePool.ComputeGradient} with the loss and
     * gradient, a {@link InferencePool.ComputeKernels} with the layer kernels. The answer goes to the pool
     * ({@link InferencePool.UnitDone}), never to the request's {@code replyTo}. {@code retry} as for {@link RunBatch}.
     */
    public record RunUnit(long unitId, InferencePool.Request request, boolean retry) implements Command {}

    private InferenceWorker() {}

    public static Behavior<Command> create(int index, RowScorer scorer, ActorRef<InferencePool.Command> pool,
                                           FaultInjector faults) {
        Behavior<Command> worker = Behaviors.receive(Command.class)
                .onMessage(RunBatch.class, batch -> onRunBatch(index, scorer, pool, faults, batch))
                .onMessage(RunUnit.class, unit -> onRunUnit(index, scorer.units(), pool, faults, unit))
                .onSignal(PreRestart.class, signal -> {
                    pool.tell(new InferencePool.WorkerRestarted(index));
                    return Behaviors.same();
                })
                .build();
        return FaultInjector.restartOnFailure(worker);
    }

    private static Behavior<Command> onRunBatch(int index, RowScorer scorer, ActorRef<InferencePool.Command> pool,
                                                FaultInjector faults, RunBatch batch) {
        crashIfInjected(index, faults, batch.batchId(), batch.retry(), "batch");
        float[][] scores = scorer.score(batch.rows());
        if (scores.length != batch.rows().size()) {
            throw new IllegalStateException("scorer returned " + scores.length + " rows for a batch of "
                    + batch.rows().size());
        }
        corrupt(index, faults, batch, scores);
        pool.tell(new InferencePool.BatchDone(index, batch.batchId(), scores));
        return Behaviors.same();
    }

    private static Behavior<Command> onRunUnit(int index, PromptScorer units, ActorRef<InferencePool.Command> pool,
                                               FaultInjector faults, RunUnit unit) {
        crashIfInjected(index, faults, unit.unitId(), unit.retry(), "unit");
        InferencePool.Request request = unit.request();
        if (request instanceof InferencePool.ComputeGradient step) {
            Gradient g = units.lossAndGradient((Prompt.Deep) step.prompt(), step.rows(), step.labels());
            pool.tell(new InferencePool.UnitDone(index, unit.unitId(), null, g, null));
        } else if (request instanceof InferencePool.ComputeKernels kernels) {
            pool.tell(new InferencePool.UnitDone(index, unit.unitId(), null, null, units.layerKernels(kernels.rows())));
        } else {
            InferencePool.ScoreRows score = (InferencePool.ScoreRows) request;
            pool.tell(new InferencePool.UnitDone(index, unit.unitId(), units.score(score.prompt(), score.rows()), null,
                    null));
        }
        return Behaviors.same();
    }

    /** An injected worker crash on work {@code id} (never on a retry, which would fail forever). */
    private static void crashIfInjected(int index, FaultInjector faults, long id, boolean retry, String kind) {
        if (!retry && faults.workerCrashes(index, id)) {
            String what = "injected fault: worker " + index + " fails on " + kind + " " + id;
            LOG.warn(what);
            throw new FaultInjector.InjectedFault(what);
        }
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
