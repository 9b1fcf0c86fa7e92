package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PreRestart;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.ClientMemory;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.HeldApart;
import dev.fedbpt.engine.method.RoundNumbers;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * One federated client: holds its tokenised partition and runs its method's client procedure, turning each
 * "score these prompts" into one score request per prompt to the inference pool, and each "compute this gradient"
 * (a white-box method's local step) into one gradient request. A crash is reported
 * to the server as a failure of the round in progress, and the actor restarts clean.
 */
public final class ClientActor extends AbstractBehavior<ClientActor.Command> {

    public sealed interface Command {}

    /**
     * Run round {@code round}'s local procedure (1-based, as users count; the engine counts the rounds completed
     * before it) for attempt {@code attempt} of that round from {@code downlink} and what this client kept from its
     * last round ({@code memory}, null: nothing), and report to {@code replyTo}.
     */
    public record Train(int round, int attempt, Downlink downlink, ClientMemory memory,
                        ActorRef<ServerActor.Command> replyTo) implements Command {}

    private record PoolReply(InferencePool.Reply reply) implements Command {}

    /** An answer held back by an injected delay. */
    private record SendLate(ActorRef<ServerActor.Command> replyTo, ServerActor.ClientReport report) implements Command {}

    private record RetryScore(long requestId) implements Command {}

    /**
     * Everything a client needs that does not change between rounds; its own test rows (null where the experiment
     * gives clients none) and whether it takes part in federated rounds only matter to personalised methods.
     */
    public record Setup(int clientId, LocalData data, Vocabulary vocabulary, FederatedMethod method,
                        long experimentSeed, ActorRef<InferencePool.Request> pool, FaultInjector faults,
                        LocalData test, boolean participant, HeldApart heldApart) {
        public Setup(int clientId, LocalData data, Vocabulary vocabulary, FederatedMethod method, long experimentSeed,
                     ActorRef<InferencePool.Request> pool, FaultInjector faults) {
            this(clientId, data, vocabulary, method, experimentSeed, pool, faults, null, true);
        }

        /** A client without held-apart rows. */
        public Setup(int clientId, LocalData data, Vocabulary vocabulary, FederatedMethod method, long experimentSeed,
                     ActorRef<InferencePool.Request> pool, FaultInjector faults, LocalData test,
                     boolean participant) {
            this(clientId, data, vocabulary, method, experimentSeed, pool, faults, test, participant, null);
        }
    }

    private static final Duration BUSY_RETRY = Duration.ofMillis(20);

    private final Setup setup;
    private final TimerScheduler<Command> timers;
    private final ActorRef<InferencePool.Reply> poolReplies;
    private final Map<Long, InferencePool.Request> outstanding = new HashMap<>();
    private final Map<Long, Integer> promptOf = new HashMap<>();
    private long nextRequestId;
    private Job job;

    /** The round in progress. */
    private static final class Job {
        final Train train;
        final ClientProcedure procedure;
        final FaultInjector.ClientFault fault;
        float[][][] scores;
        int remaining;
        long forwardRows;

        Job(Train train, ClientProcedure procedure, FaultInjector.ClientFault fault) {
            this.train = train;
            this.procedure = procedure;
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
        promptOf.clear();
        job = null;
        FaultInjector.ClientFault fault = setup.faults().clientFault(train.round(), train.attempt(), setup.clientId());
        if (fault.drops()) {
            getContext().getLog().warn("injected fault: client {} silently drops round {} attempt {}",
                    setup.clientId(), train.round(), train.attempt());
            return this;
        }
        ClientTask task = new ClientTask(setup.clientId(), RoundNumbers.index(train.round()), setup.data(),
                setup.vocabulary(), setup.experimentSeed(), train.memory(), setup.test(), setup.participant(),
                setup.heldApart());
        job = new Job(train, setup.method().client(train.downlink(), task), fault);
        advance();
        return this;
    }

    private void advance() {
        ClientProcedure.Step step = job.procedure.next();
        if (step instanceof ClientProcedure.Finished finished) {
            report(new ServerActor.ClientReport(finished.upload(), finished.memory(), job.train.attempt(),
                    job.forwardRows, job.procedure.nonFiniteCount()));
            job = null;
            return;
        }
        int stepIndex = ClientProcedure.stepIndex(step);
        if (stepIndex == job.fault.crashAtIteration()) {
            String what = "injected fault: client " + setup.clientId() + " crashes at local step "
                    + stepIndex + " of round " + job.train.round();
            getContext().getLog().warn(what);
            throw new FaultInjector.InjectedFault(what);
        }
        if (step instanceof ClientProcedure.ComputeGradient request) {
            requestGradient(request);
        } else if (step instanceof ClientProcedure.LayerKernels request) {
            requestUnit(new InferencePool.ComputeKernels(nextRequestId++, request.rows(), poolReplies));
        } else {
            requestScores((ClientProcedure.ScorePrompts) step);
        }
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

    private void requestScores(ClientProcedure.ScorePrompts request) {
        int prompts = request.prompts().size();
        job.scores = new float[prompts][][];
        job.remaining = prompts;
        for (int p = 0; p < prompts; p++) {
            long id = nextRequestId++;
            InferencePool.ScoreRows score = new InferencePool.ScoreRows(id, request.prompts().get(p), request.rows(),
                    request.labelRows(), poolReplies);
            outstanding.put(id, score);
            promptOf.put(id, p);
            setup.pool().tell(score);
        }
        job.forwardRows += (long) prompts * request.rows().size();
    }

    /** A white-box local step: one request to the pool, answered with the loss and gradient. */
    private void requestGradient(ClientProcedure.ComputeGradient request) {
        requestUnit(new InferencePool.ComputeGradient(nextRequestId++, request.prompt(), request.rows(),
                request.labels(), poolReplies));
    }

    /** One request the pool answers whole (a gradient, layer kernels). */
    private void requestUnit(InferencePool.Request request) {
        outstanding.put(request.requestId(), request);
        setup.pool().tell(request);
        job.forwardRows += request.rows().size();
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
            promptOf.clear();
        } else if (reply instanceof InferencePool.GradientComputed computed) {
            outstanding.remove(computed.requestId());
            job.procedure.onGradient(computed.gradient());
            stepDone();
        } else if (reply instanceof InferencePool.KernelsComputed computed) {
            outstanding.remove(computed.requestId());
            job.procedure.onLayerKernels(computed.kernels());
            stepDone();
        } else {
            onScored((InferencePool.Scored) reply);
        }
        return this;
    }

    private void onScored(InferencePool.Scored scored) {
        outstanding.remove(scored.requestId());
        job.scores[promptOf.remove(scored.requestId())] = scored.scores();
        if (--job.remaining == 0) {
            job.procedure.onScores(job.scores);
            stepDone();
        }
    }

    /** A local step was answered: tell the server this client is working (its round deadline counts silence). */
    private void stepDone() {
        job.train.replyTo().tell(new ServerActor.ClientProgressed(job.train.round(), job.train.attempt(),
                setup.clientId()));
        advance();
    }

    private Behavior<Command> onRetryScore(RetryScore retry) {
        InferencePool.Request request = outstanding.get(retry.requestId());
        if (request != null) {
            setup.pool().tell(request);
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
