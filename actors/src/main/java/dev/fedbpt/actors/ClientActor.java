package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PreRestart;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import dev.fedbpt.engine.fedbpt.ClientSearch;
import dev.fedbpt.engine.fedbpt.ClientSearchConfig;
import dev.fedbpt.engine.fedbpt.GlobalState;
import dev.fedbpt.engine.fedbpt.LocalData;
import dev.fedbpt.engine.fedbpt.SearchStep;
import dev.fedbpt.engine.fedbpt.Vocabulary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One federated client: holds its tokenised partition and runs the engine's client search, turning each
 * "evaluate these candidates" into one score request per candidate to the inference pool. A crash is reported
 * to the server as a failure of the round in progress, and the actor restarts clean.
 */
public final class ClientActor extends AbstractBehavior<ClientActor.Command> {

    public sealed interface Command {}

    /**
     * Run round {@code round}'s local search (1-based, as users count; the engine's coordinates use
     * {@code global.round()}, the rounds completed before it) for attempt {@code attempt} of that round, and report
     * to {@code replyTo}.
     */
    public record Train(int round, int attempt, GlobalState global, ActorRef<ServerActor.Command> replyTo)
            implements Command {}

    private record PoolReply(InferencePool.Reply reply) implements Command {}

    /** An answer held back by an injected delay. */
    private record SendLate(ActorRef<ServerActor.Command> replyTo, ServerActor.ClientReport report) implements Command {}

    private record RetryScore(long requestId) implements Command {}

    /** Everything a client needs that does not change between rounds. */
    public record Setup(int clientId, LocalData data, Vocabulary vocabulary, ClientSearchConfig search,
                        long experimentSeed, ActorRef<InferencePool.Score> pool, FaultInjector faults,
                        SharedStart start) {}

    private static final Duration BUSY_RETRY = Duration.ofMillis(20);

    private final Setup setup;
    private final TimerScheduler<Command> timers;
    private final ActorRef<InferencePool.Reply> poolReplies;
    private final Map<Long, InferencePool.Score> outstanding = new HashMap<>();
    private final Map<Long, Integer> candidateOf = new HashMap<>();
    private long nextRequestId;
    private Job job;

    /** The round in progress. */
    private static final class Job {
        final Train train;
        final ClientSearch search;
        final FaultInjector.ClientFault fault;
        SearchStep.Evaluate step;
        float[][][] clean;
        float[][][] perturbed;
        int remaining;
        long forwardRows;

        Job(Train train, ClientSearch search, FaultInjector.ClientFault fault) {
            this.train = train;
            this.search = search;
            this.fault = fault;
        }
    }

    public static Behavior<Command> create(Setup setup) {
        Behavior<Command> client = Behaviors.setup(context -> Behaviors.withTimers(timers ->
                new ClientActor(context, timers, setup)));
        return FaultInjector.restartOnFailure(client);
    }

    private ClientActor(ActorContext<Command> context, TimerScheduler<Command> timers, Setup setup) {
        super(context);
        this.setup = setup;
        this.timers = timers;
        this.poolReplies = context.messageAdapter(InferencePool.Reply.class, PoolReply::new);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Train.class, this::onTrain)
                .onMessage(PoolReply.class, this::onPoolReply)
                .onMessage(RetryScore.class, this::onRetryScore)
                .onMessage(SendLate.class, this::onSendLate)
                .onSignal(PreRestart.class, signal -> onPreRestart())
                .build();
    }

    private Behavior<Command> onTrain(Train train) {
        outstanding.clear();
        candidateOf.clear();
        job = null;
        FaultInjector.ClientFault fault = setup.faults().clientFault(train.round(), train.attempt(), setup.clientId());
        if (fault.drops()) {
            getContext().getLog().warn("injected fault: client {} silently drops round {} attempt {}",
                    setup.clientId(), train.round(), train.attempt());
            return this;
        }
        job = new Job(train, new ClientSearch(setup.start().of(train.global()), setup.search(), setup.data(),
                setup.vocabulary(), setup.experimentSeed(), train.global().round(), setup.clientId()), fault);
        advance();
        return this;
    }

    private void advance() {
        SearchStep step = job.search.next();
        if (step instanceof SearchStep.Done done) {
            report(new ServerActor.ClientReport(done.result(), job.train.attempt(), job.forwardRows,
                    job.search.nonFiniteCount()));
            job = null;
            return;
        }
        SearchStep.Evaluate evaluate = (SearchStep.Evaluate) step;
        if (evaluate.iteration() == job.fault.crashAtIteration()) {
            String what = "injected fault: client " + setup.clientId() + " crashes at local iteration "
                    + evaluate.iteration() + " of round " + job.train.round();
            getContext().getLog().warn(what);
            throw new FaultInjector.InjectedFault(what);
        }
        requestScores(evaluate);
    }

    private void report(ServerActor.ClientReport report) {
        Duration delay = job.fault.delay();
        if (delay.isZero()) {
            job.train.replyTo().tell(report);
            return;
        }
        getContext().getLog().warn("injected fault: client {} holds its answer to round {} back for {} ms",
                setup.clientId(), job.train.round(), delay.toMillis());
        timers.startSingleTimer(new Object(), new SendLate(job.train.replyTo(), report), delay);
    }

    private Behavior<Command> onSendLate(SendLate late) {
        late.replyTo().tell(late.report());
        return this;
    }

    private void requestScores(SearchStep.Evaluate evaluate) {
        int candidates = evaluate.candidates().length;
        job.step = evaluate;
        job.clean = new float[candidates][][];
        job.perturbed = evaluate.perturbedRows() == null ? null : new float[candidates][][];
        job.remaining = candidates;
        List<int[]> rows = new ArrayList<>(evaluate.cleanRows());
        if (evaluate.perturbedRows() != null) {
            rows.addAll(evaluate.perturbedRows());
        }
        List<int[]> allRows = List.copyOf(rows);
        for (int c = 0; c < candidates; c++) {
            long id = nextRequestId++;
            InferencePool.Score score = new InferencePool.Score(id, evaluate.candidates()[c], allRows, poolReplies);
            outstanding.put(id, score);
            candidateOf.put(id, c);
            setup.pool().tell(score);
        }
        job.forwardRows += (long) candidates * allRows.size();
    }

    private Behavior<Command> onPoolReply(PoolReply message) {
        InferencePool.Reply reply = message.reply();
        if (job == null || !outstanding.containsKey(reply.requestId())) {
            return this; // a reply for a round this client already finished or abandoned
        }
        if (reply instanceof InferencePool.Busy busy) {
            timers.startSingleTimer(busy.requestId(), new RetryScore(busy.requestId()), BUSY_RETRY);
        } else if (reply instanceof InferencePool.Failed failed) {
            job.train.replyTo().tell(new ServerActor.ClientFailed(job.train.round(), job.train.attempt(),
                    setup.clientId(), failed.reason()));
            job = null;
            outstanding.clear();
            candidateOf.clear();
        } else {
            onScored((InferencePool.Scored) reply);
        }
        return this;
    }

    private void onScored(InferencePool.Scored scored) {
        outstanding.remove(scored.requestId());
        int candidate = candidateOf.remove(scored.requestId());
        int cleanRows = job.step.cleanRows().size();
        float[][] scores = scored.scores();
        job.clean[candidate] = java.util.Arrays.copyOfRange(scores, 0, cleanRows);
        if (job.perturbed != null) {
            job.perturbed[candidate] = java.util.Arrays.copyOfRange(scores, cleanRows, scores.length);
        }
        if (--job.remaining == 0) {
            job.search.onScores(job.clean, job.perturbed);
            advance();
        }
    }

    private Behavior<Command> onRetryScore(RetryScore retry) {
        InferencePool.Score score = outstanding.get(retry.requestId());
        if (score != null) {
            setup.pool().tell(score);
        }
        return this;
    }

    private Behavior<Command> onPreRestart() {
        if (job != null) {
            job.train.replyTo().tell(new ServerActor.ClientFailed(job.train.round(), job.train.attempt(),
                    setup.clientId(), "client crashed during its local search"));
        }
        return this;
    }
}
