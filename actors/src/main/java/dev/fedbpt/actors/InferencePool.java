package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.DispatcherSelector;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.inference.ScoreRow;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Gathers score requests from every client into batches for the workers. A batch is cut when it reaches the row
 * limit or the padded-token limit, or when the oldest queued row has waited {@code maxWait}. Per-row results do not
 * depend on which rows share a batch (the inference module guarantees it), so batching never changes results.
 *
 * <p>White-box work runs as units instead: a {@link ComputeGradient}, a {@link ComputeKernels} and a {@link ScoreRows}
 * whose prompt is a {@link Prompt.Deep} each go whole to one worker ({@link RowScorer#units()}), so that their results
 * depend on the request alone (a backward pass is one client's, and the white-box model groups a request's rows
 * itself). Units go to idle workers before row batches: a client waits on each of its steps.
 */
public final class InferencePool extends AbstractBehavior<InferencePool.Command> {

    public sealed interface Command {}

    /**
     * A request to the pool, answered to {@code replyTo} under {@code requestId}: one of {@link ScoreRows},
     * {@link ComputeGradient} or {@link ComputeKernels}. Requests cross cluster members (a {@link PoolLink} forwards
     * them to the pool on the inference member).
     */
    public sealed interface Request extends Command, PoolLink.Command, WireMessage
            permits ScoreRows, ComputeGradient, ComputeKernels {
        long requestId();

        /** The token rows the request is about (at least one, or the pool answers an empty {@link Scored}). */
        List<int[]> rows();

        ActorRef<Reply> replyTo();

        /** The same request under another id and reply address (a link forwarding it). */
        Request readdressed(long id, ActorRef<Reply> to);
    }

    /**
     * Score {@code rows}, each with {@code prompt} (null: no prompt), answered with {@link Scored}.
     * {@code labelRows} (null: the rows themselves) says where each row's label is read
     * ({@link ClientProcedure.ScorePrompts#labelRows()}). The rows are batched with other requests' rows, except under
     * a {@link Prompt.Deep}: the white-box model scores those whole, on one worker.
     */
    public record ScoreRows(long requestId, Prompt prompt, List<int[]> rows, List<int[]> labelRows,
                            ActorRef<Reply> replyTo) implements Request {
        public ScoreRows(long requestId, Prompt prompt, List<int[]> rows, ActorRef<Reply> replyTo) {
            this(requestId, prompt, rows, null, replyTo);
        }

        @Override
        public ScoreRows readdressed(long id, ActorRef<Reply> to) {
            return new ScoreRows(id, prompt, rows, labelRows, to);
        }

        /** The row whose label position row {@code i} is read at. */
        int[] labelRow(int i) {
            return labelRows == null ? rows.get(i) : labelRows.get(i);
        }

        /** Answered whole by one worker's white-box scorer, not row by row in shared batches. */
        boolean isUnit() {
            return prompt instanceof Prompt.Deep;
        }
    }

    /**
     * A white-box local step: the loss of {@code prompt}, a {@link Prompt.Deep}, on {@code rows} with {@code labels}
     * (one per row), and its gradient ({@link GradientComputed}). Runs whole on one worker. The prompt is declared a
     * {@link Prompt} because that is the type the wire reads prompts as ({@code PayloadModule}).
     */
    public record ComputeGradient(long requestId, Prompt prompt, List<int[]> rows, int[] labels,
                                  ActorRef<Reply> replyTo) implements Request {
        @Override
        public ComputeGradient readdressed(long id, ActorRef<Reply> to) {
            return new ComputeGradient(id, prompt, rows, labels, to);
        }
    }

    /**
     * The model's per-layer similarities between {@code rows} (no prompt), answered with {@link KernelsComputed}.
     * Runs whole on one worker.
     */
    public record ComputeKernels(long requestId, List<int[]> rows, ActorRef<Reply> replyTo) implements Request {
        @Override
        public ComputeKernels readdressed(long id, ActorRef<Reply> to) {
            return new ComputeKernels(id, rows, to);
        }
    }

    record BatchDone(int worker, long batchId, float[][] scores) implements Command {}

    /** A unit's answer: scores for a score request, a gradient for a gradient request, kernels for a kernel request. */
    record UnitDone(int worker, long unitId, float[][] scores, Gradient gradient, double[][][] kernels)
            implements Command {}

    record WorkerRestarted(int worker) implements Command {}

    private record FlushDue() implements Command {}

    public sealed interface Reply {
        long requestId();
    }

    public record Scored(long requestId, float[][] scores) implements Reply, WireMessage {}

    public record GradientComputed(long requestId, Gradient gradient) implements Reply, WireMessage {}

    /** [layer][row][row]: the answer to a {@link ComputeKernels}. */
    public record KernelsComputed(long requestId, double[][][] kernels) implements Reply, WireMessage {}

    /** The queue is full: ask again later. */
    public record Busy(long requestId) implements Reply, WireMessage {}

    /** The batch holding this request failed on every retry. */
    public record Failed(long requestId, String reason) implements Reply, WireMessage {}

    public record Settings(int maxBatchRows, int maxBatchTokens, Duration maxWait, int queueLimit,
                           int maxBatchRetries) {}

    private static final String WORKER_DISPATCHER = "fedbpt-inference-dispatcher";
    /**
     * How far past the oldest row a batch may reach for rows of similar length. On AG News 8 batches' worth left 14%
     * of the token slots as padding and 32 left 5.5% (a whole queue, 5.8%): a FedBPT round took 84 s instead of 94.
     */
    private static final int WINDOW_BATCHES = 32;

    private final Settings settings;
    private final TimerScheduler<Command> timers;
    private final List<ActorRef<InferenceWorker.Command>> workers = new ArrayList<>();
    private final ArrayDeque<Integer> idleWorkers = new ArrayDeque<>();
    private final ArrayDeque<PendingRow> queue = new ArrayDeque<>();
    private final Map<Integer, Batch> inFlight = new HashMap<>();
    private final ArrayDeque<Unit> units = new ArrayDeque<>();
    private final Map<Integer, Unit> unitsInFlight = new HashMap<>();
    private long nextBatchId;
    private int queuedRequests;
    private boolean flushDue;

    /** A {@link ScoreRows} whose rows are batched: the scores gathered so far. */
    private static final class PendingScores {
        final ScoreRows score;
        final float[][] results;
        int remaining;

        PendingScores(ScoreRows score) {
            this.score = score;
            this.results = new float[score.rows().size()][];
            this.remaining = score.rows().size();
        }
    }

    /** A row waiting for a worker; {@code failures} counts the batches holding it that failed. */
    private static final class PendingRow {
        final PendingScores request;
        final int index;
        int failures;

        PendingRow(PendingScores request, int index) {
            this.request = request;
            this.index = index;
        }

        int tokens() {
            return request.score.rows().get(index).length;
        }
    }

    private record Batch(long id, List<PendingRow> rows) {}

    /** A request run whole on one worker: a {@link ComputeGradient}, {@link ComputeKernels} or deep-prompt score. */
    private static final class Unit {
        final long id;
        final Request request;
        int failures;

        Unit(long id, Request request) {
            this.id = id;
            this.request = request;
        }
    }

    public static Behavior<Command> create(Settings settings, List<RowScorer> scorers, FaultInjector faults) {
        return Behaviors.setup(context -> Behaviors.withTimers(timers ->
                new InferencePool(context, timers, settings, scorers, faults)));
    }

    private InferencePool(ActorContext<Command> context, TimerScheduler<Command> timers, Settings settings,
                          List<RowScorer> scorers, FaultInjector faults) {
        super(context);
        this.settings = settings;
        this.timers = timers;
        for (int i = 0; i < scorers.size(); i++) {
            workers.add(context.spawn(InferenceWorker.create(i, scorers.get(i), context.getSelf(), faults),
                    "worker-" + i, DispatcherSelector.fromConfig(WORKER_DISPATCHER)));
            idleWorkers.add(i);
        }
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Request.class, this::onRequest)
                .onMessage(BatchDone.class, this::onBatchDone)
                .onMessage(UnitDone.class, this::onUnitDone)
                .onMessage(WorkerRestarted.class, this::onWorkerRestarted)
                .onMessage(FlushDue.class, message -> onFlushDue())
                .build();
    }

    private Behavior<Command> onRequest(Request request) {
        if (queuedRequests >= settings.queueLimit()) {
            request.replyTo().tell(new Busy(request.requestId()));
            return this;
        }
        if (request.rows().isEmpty()) {
            request.replyTo().tell(new Scored(request.requestId(), new float[0][]));
            return this;
        }
        if (!(request instanceof ScoreRows score) || score.isUnit()) {
            queuedRequests++;
            units.add(new Unit(nextBatchId++, request));
            dispatch();
            return this;
        }
        PendingScores pending = new PendingScores(score);
        queuedRequests++;
        for (int i = 0; i < score.rows().size(); i++) {
            queue.add(new PendingRow(pending, i));
        }
        dispatch();
        return this;
    }

    private Behavior<Command> onUnitDone(UnitDone done) {
        Unit unit = unitsInFlight.remove(done.worker());
        idleWorkers.add(done.worker());
        if (unit != null && unit.id == done.unitId()) {
            queuedRequests--;
            long id = unit.request.requestId();
            Reply reply = done.gradient() != null ? new GradientComputed(id, done.gradient())
                    : done.kernels() != null ? new KernelsComputed(id, done.kernels()) : new Scored(id, done.scores());
            unit.request.replyTo().tell(reply);
        }
        dispatch();
        return this;
    }

    private Behavior<Command> onBatchDone(BatchDone done) {
        Batch batch = inFlight.remove(done.worker());
        idleWorkers.add(done.worker());
        if (batch != null && batch.id() == done.batchId()) {
            for (int i = 0; i < batch.rows().size(); i++) {
                PendingRow row = batch.rows().get(i);
                if (row.request.remaining == 0) {
                    continue; // its request already failed through another batch
                }
                row.request.results[row.index] = done.scores()[i];
                if (--row.request.remaining == 0) {
                    queuedRequests--;
                    row.request.score.replyTo().tell(new Scored(row.request.score.requestId(), row.request.results));
                }
            }
        }
        dispatch();
        return this;
    }

    private Behavior<Command> onWorkerRestarted(WorkerRestarted restarted) {
        Batch batch = inFlight.remove(restarted.worker());
        Unit unit = unitsInFlight.remove(restarted.worker());
        idleWorkers.add(restarted.worker());
        if (unit != null) {
            getContext().getLog().warn("inference worker {} failed on unit {}; {}", restarted.worker(), unit.id,
                    ++unit.failures >= settings.maxBatchRetries() ? "giving up" : "re-queued");
            if (unit.failures >= settings.maxBatchRetries()) {
                queuedRequests--;
                unit.request.replyTo().tell(new Failed(unit.request.requestId(), "inference failed "
                        + unit.failures + " times on this request"));
            } else {
                units.addFirst(unit);
            }
        }
        if (batch != null) {
            getContext().getLog().warn("inference worker {} failed on batch {} ({} rows); re-queued",
                    restarted.worker(), batch.id(), batch.rows().size());
            List<PendingRow> rows = batch.rows();
            for (int i = rows.size() - 1; i >= 0; i--) {
                PendingRow row = rows.get(i);
                if (++row.failures >= settings.maxBatchRetries()) {
                    fail(row.request, "inference failed " + row.failures + " times on a batch holding this request");
                } else if (row.request.remaining > 0) {
                    queue.addFirst(row);
                }
            }
        }
        dispatch();
        return this;
    }

    private void fail(PendingScores request, String reason) {
        if (request.remaining > 0) {
            request.remaining = 0;
            queuedRequests--;
            request.score.replyTo().tell(new Failed(request.score.requestId(), reason));
            queue.removeIf(row -> row.request == request);
        }
    }

    private Behavior<Command> onFlushDue() {
        flushDue = true;
        dispatch();
        return this;
    }

    private void dispatch() {
        while (!idleWorkers.isEmpty() && !units.isEmpty()) {
            sendUnit(idleWorkers.poll(), units.poll());
        }
        while (!idleWorkers.isEmpty() && !queue.isEmpty()) {
            if (!flushDue && queue.size() < settings.maxBatchRows() && paddedTokens(queue.size()) < settings.maxBatchTokens()) {
                if (!timers.isTimerActive("flush")) {
                    timers.startSingleTimer("flush", new FlushDue(), settings.maxWait());
                }
                return;
            }
            sendBatch(idleWorkers.poll());
            flushDue = false;
        }
        if (queue.isEmpty()) {
            timers.cancel("flush");
            flushDue = false;
        }
    }

    private int paddedTokens(int rows) {
        int longest = 0;
        int counted = 0;
        for (PendingRow row : queue) {
            if (counted++ == rows) {
                break;
            }
            longest = Math.max(longest, row.tokens());
        }
        return longest * rows;
    }

    /**
     * Cuts a batch: the oldest queued row always goes (no row waits behind later ones), and the batch is filled with
     * the rows of the queue's first {@value #WINDOW_BATCHES} batches' worth whose lengths are nearest to it, so that
     * little of the forward pass is padding (on SST-2, arrival order left 57% of the token slots as padding). A row's
     * scores do not depend on the rows batched with it, so the choice changes speed only, never results.
     */
    private void sendBatch(int worker) {
        List<PendingRow> window = new ArrayList<>();
        while (!queue.isEmpty() && window.size() < settings.maxBatchRows() * WINDOW_BATCHES) {
            window.add(queue.poll());
        }
        int target = window.get(0).tokens();
        List<Integer> byNearness = new ArrayList<>();
        for (int i = 1; i < window.size(); i++) {
            byNearness.add(i);
        }
        byNearness.sort(Comparator.comparingInt((Integer i) -> Math.abs(window.get(i).tokens() - target))
                .thenComparingInt(i -> i));
        boolean[] chosen = new boolean[window.size()];
        chosen[0] = true;
        List<PendingRow> rows = new ArrayList<>(List.of(window.get(0)));
        int longest = target;
        for (int i : byNearness) {
            if (rows.size() == settings.maxBatchRows()) {
                break;
            }
            int tokens = window.get(i).tokens();
            if (Math.max(longest, tokens) * (rows.size() + 1) > settings.maxBatchTokens()) {
                continue;
            }
            longest = Math.max(longest, tokens);
            rows.add(window.get(i));
            chosen[i] = true;
        }
        for (int i = window.size() - 1; i >= 0; i--) {
            if (!chosen[i]) {
                queue.addFirst(window.get(i)); // back in their original order
            }
        }
        Batch batch = new Batch(nextBatchId++, List.copyOf(rows));
        inFlight.put(worker, batch);
        List<ScoreRow> scoreRows = new ArrayList<>(rows.size());
        boolean retry = false;
        for (PendingRow row : rows) {
            ScoreRows score = row.request.score;
            scoreRows.add(modelInput(score.prompt(), score.rows().get(row.index), score.labelRow(row.index)));
            retry |= row.failures > 0;
        }
        workers.get(worker).tell(new InferenceWorker.RunBatch(batch.id(), scoreRows, retry));
    }

    private void sendUnit(int worker, Unit unit) {
        unitsInFlight.put(worker, unit);
        workers.get(worker).tell(new InferenceWorker.RunUnit(unit.id, unit.request, unit.failures > 0));
    }

    /**
     * What the model takes for {@code row} with {@code prompt} (null: none): a continuous prompt as the point z the
     * model projects, an embeddings prompt as its vectors, a token prompt as ordinary tokens after the row's first
     * one.
     */
    static ScoreRow modelInput(Prompt prompt, int[] row) {
        return modelInput(prompt, row, row);
    }

    /** As {@link #modelInput(Prompt, int[])}, the row's label read where {@code labelRow} has it. */
    static ScoreRow modelInput(Prompt prompt, int[] row, int[] labelRow) {
        int[] labelledBy = labelRow == row ? null : labelRow;
        if (prompt == null) {
            return new ScoreRow(null, row, null, labelledBy);
        }
        if (prompt instanceof Prompt.Continuous continuous) {
            return new ScoreRow(continuous.z(), row, null, labelledBy);
        }
        if (prompt instanceof Prompt.Embeddings embeddings) {
            return new ScoreRow(null, row, embeddings.flattened(), labelledBy);
        }
        Prompt.Tokens tokens = (Prompt.Tokens) prompt;
        return new ScoreRow(null, tokens.insertInto(row), null, labelledBy == null ? null : tokens.insertInto(labelledBy),
                tokens.ids().length);
    }
}
