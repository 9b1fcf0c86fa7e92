package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import dev.fedbpt.engine.data.TaskDefinition;
import dev.fedbpt.engine.data.TaskMetric;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.persistence.Confusion;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scores one prompt on the test rows through the inference pool and reports the accuracy (argmax of the class
 * scores), and its progress as each tenth of the rows is scored: an AG News evaluation takes a minute, an in-context
 * one several. One short-lived actor per evaluation; requests are chunked so they batch with the clients' traffic.
 */
public final class Evaluator {
    public sealed interface Command {}

    private record PoolReply(InferencePool.Reply reply) implements Command {}

    private record Retry(long requestId) implements Command {}

    /**
     * Test rows and labels, tokenised once per run, and how predictions are scored: the task's metrics (accuracy
     * is always reported) with the class F1 is computed for (-1: none).
     */
    public record TestSet(List<int[]> rows, int[] labels, int numClasses, List<TaskMetric> metrics,
                          int positiveLabel) {
        public static TestSet of(List<int[]> rows, int[] labels, TaskDefinition task) {
            return new TestSet(rows, labels, task.numClasses(), task.metrics(), task.positiveLabel());
        }

        /** Scored by accuracy alone. */
        public static TestSet accuracyOnly(List<int[]> rows, int[] labels, int numClasses) {
            return new TestSet(rows, labels, numClasses, List.of(TaskMetric.ACCURACY), -1);
        }
    }

    public sealed interface Reply {}

    /**
     * @param taskMetrics the task's metrics besides accuracy ({@link TaskMetric#key} to value; empty for tasks
     *                    scored by accuracy alone)
     * @param confusion   how the rows were classified, from which both were computed
     * @param elapsed     the evaluation's wall time, a measurement that nothing computed reads
     */
    public record Outcome(int round, double accuracy, Map<String, Double> taskMetrics, Confusion confusion,
                          Duration elapsed, String failure) implements Reply {
        static Outcome failed(int round, String failure) {
            return new Outcome(round, Double.NaN, Map.of(), Confusion.EMPTY, Duration.ZERO, failure);
        }
    }

    /** Rows scored so far, and the time since the evaluation began: for progress lines only. */
    public record Progress(int round, int scoredRows, int totalRows, Duration elapsed) implements Reply {}

    private static final int CHUNK_ROWS = 32;
    private static final Duration BUSY_RETRY = Duration.ofMillis(20);

    private Evaluator() {}

    public static Behavior<Command> create(int round, Prompt prompt, TestSet testSet,
                                           ActorRef<InferencePool.Request> pool, ActorRef<Reply> replyTo) {
        return Behaviors.setup(context -> Behaviors.withTimers(timers -> {
            long startNanos = System.nanoTime();
            ActorRef<InferencePool.Reply> replies = context.messageAdapter(InferencePool.Reply.class, PoolReply::new);
            Map<Long, InferencePool.ScoreRows> outstanding = new HashMap<>();
            int total = testSet.rows().size();
            for (int start = 0, id = 0; start < total; start += CHUNK_ROWS, id++) {
                List<int[]> chunk = testSet.rows().subList(start, Math.min(total, start + CHUNK_ROWS));
                InferencePool.ScoreRows score = new InferencePool.ScoreRows(id, prompt, List.copyOf(chunk), replies);
                outstanding.put((long) id, score);
                pool.tell(score);
            }
            if (total == 0) {
                replyTo.tell(Outcome.failed(round, "the test set is empty"));
                return Behaviors.stopped();
            }
            int classes = testSet.numClasses();
            long[][] confusion = new long[classes][classes];
            int[] scoredRows = {0};
            return Behaviors.receive(Command.class)
                    .onMessage(Retry.class, retry -> {
                        pool.tell(outstanding.get(retry.requestId()));
                        return Behaviors.same();
                    })
                    .onMessage(PoolReply.class, message -> {
                        InferencePool.Reply reply = message.reply();
                        if (reply instanceof InferencePool.Busy busy) {
                            timers.startSingleTimer(busy.requestId(), new Retry(busy.requestId()), BUSY_RETRY);
                            return Behaviors.same();
                        }
                        if (reply instanceof InferencePool.Failed failed) {
                            replyTo.tell(Outcome.failed(round, failed.reason()));
                            return Behaviors.stopped();
                        }
                        InferencePool.Scored scored = (InferencePool.Scored) reply;
                        int offset = (int) scored.requestId() * CHUNK_ROWS;
                        float[][] scores = scored.scores();
                        for (int i = 0; i < scores.length; i++) {
                            confusion[testSet.labels()[offset + i]][TaskMetric.predicted(scores[i])]++;
                        }
                        outstanding.remove(scored.requestId());
                        if (outstanding.isEmpty()) {
                            replyTo.tell(outcome(round, confusion, testSet,
                                    Duration.ofNanos(System.nanoTime() - startNanos)));
                            return Behaviors.stopped();
                        }
                        int before = scoredRows[0];
                        scoredRows[0] += scores.length;
                        if (10L * scoredRows[0] / total > 10L * before / total) {
                            replyTo.tell(new Progress(round, scoredRows[0], total,
                                    Duration.ofNanos(System.nanoTime() - startNanos)));
                        }
                        return Behaviors.same();
                    })
                    .build();
        }));
    }

    /** Accuracy and the task's other metrics of a finished evaluation. */
    static Outcome outcome(int round, long[][] confusion, TestSet testSet, Duration elapsed) {
        Map<String, Double> others = new LinkedHashMap<>();
        for (TaskMetric metric : testSet.metrics()) {
            if (metric != TaskMetric.ACCURACY) {
                others.put(metric.key(), metric.of(confusion, testSet.positiveLabel()));
            }
        }
        return new Outcome(round, TaskMetric.ACCURACY.of(confusion, -1), Collections.unmodifiableMap(others),
                Confusion.of(confusion), elapsed, null);
    }
}
