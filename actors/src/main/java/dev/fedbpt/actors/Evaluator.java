package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import dev.fedbpt.engine.method.Prompt;
import java.time.Duration;
import java.util.HashMap;
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

    /** Test rows and labels, tokenised once per run. */
    public record TestSet(List<int[]> rows, int[] labels) {}

    public sealed interface Reply {}

    public record Outcome(int round, double accuracy, String failure) implements Reply {}

    /** Rows scored so far, and the time since the evaluation began: for progress lines only. */
    public record Progress(int round, int scoredRows, int totalRows, Duration elapsed) implements Reply {}

    private static final int CHUNK_ROWS = 32;
    private static final Duration BUSY_RETRY = Duration.ofMillis(20);

    private Evaluator() {}

    public static Behavior<Command> create(int round, Prompt prompt, TestSet testSet,
                                           ActorRef<InferencePool.Score> pool, ActorRef<Reply> replyTo) {
        return Behaviors.setup(context -> Behaviors.withTimers(timers -> {
            long startNanos = System.nanoTime();
            ActorRef<InferencePool.Reply> replies = context.messageAdapter(InferencePool.Reply.class, PoolReply::new);
            Map<Long, InferencePool.Score> outstanding = new HashMap<>();
            int total = testSet.rows().size();
            for (int start = 0, id = 0; start < total; start += CHUNK_ROWS, id++) {
                List<int[]> chunk = testSet.rows().subList(start, Math.min(total, start + CHUNK_ROWS));
                InferencePool.Score score = new InferencePool.Score(id, prompt, List.copyOf(chunk), replies);
                outstanding.put((long) id, score);
                pool.tell(score);
            }
            if (total == 0) {
                replyTo.tell(new Outcome(round, Double.NaN, "the test set is empty"));
                return Behaviors.stopped();
            }
            int[] correct = {0};
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
                            replyTo.tell(new Outcome(round, Double.NaN, failed.reason()));
                            return Behaviors.stopped();
                        }
                        InferencePool.Scored scored = (InferencePool.Scored) reply;
                        int offset = (int) scored.requestId() * CHUNK_ROWS;
                        float[][] scores = scored.scores();
                        for (int i = 0; i < scores.length; i++) {
                            if (argmax(scores[i]) == testSet.labels()[offset + i]) {
                                correct[0]++;
                            }
                        }
                        outstanding.remove(scored.requestId());
                        if (outstanding.isEmpty()) {
                            replyTo.tell(new Outcome(round, (double) correct[0] / total, null));
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

    /** The predicted class: index of the largest score; NaN scores never win, ties go to the lower class index. */
    public static int argmax(float[] scores) {
        int best = 0;
        for (int i = 1; i < scores.length; i++) {
            if (scores[i] > scores[best] || Float.isNaN(scores[best])) {
                best = i;
            }
        }
        return best;
    }
}
