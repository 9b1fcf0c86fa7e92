package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.TimerScheduler;
import akka.persistence.typed.PersistenceId;
import akka.persistence.typed.RecoveryCompleted;
import akka.persistence.typed.RecoveryFailed;
import akka.persistence.typed.javadsl.CommandHandler;
import akka.persistence.typed.javadsl.CommandHandlerBuilder;
import akka.persistence.typed.javadsl.Effect;
import akka.persistence.typed.javadsl.EventHandler;
import akka.persistence.typed.javadsl.EventSourcedBehavior;
import akka.persistence.typed.javadsl.RetentionCriteria;
import akka.persistence.typed.javadsl.SignalHandler;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.method.ClientMemory;
import dev.fedbpt.engine.method.ClientSampler;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.Participation;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.Upload;
import dev.fedbpt.persistence.RoundIncidents;
import dev.fedbpt.persistence.RoundSummary;
import dev.fedbpt.persistence.ServerEvent;
import dev.fedbpt.persistence.ServerState;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * The federated server, event-sourced: every decision (round opened, result accepted, client dropped, round
 * closed, prompt evaluated) is journalled before it takes effect, and the global state is rebuilt by replaying
 * the method's aggregation over the journal. After a crash, recovery replays to the exact state, and the
 * {@code Continue} of the phase it is in ({@link ServerPhase}) picks up the first unfinished step: the clients of an
 * open round whose results were not yet stored run again. The command handler is organised by phase; the handlers
 * of an open round live in {@link OpenRoundHandlers}.
 */
public final class ServerActor extends EventSourcedBehavior<ServerActor.Command, ServerEvent, ServerState> {

    public sealed interface Command {}

    /**
     * A client's answer to attempt {@code attempt} of a round: its upload, what it keeps for its next round (null:
     * nothing), and {@code nonFiniteScores} as counted by its procedure.
     */
    public record ClientReport(Upload upload, ClientMemory memory, int attempt, long forwardRows,
                               int nonFiniteScores) implements Command, WireMessage {}

    public record ClientFailed(int round, int attempt, int clientId, String reason) implements Command, WireMessage {}

    /** A client began attempt {@code attempt} of a round on cluster member {@code node}. */
    public record ClientStarted(int round, int attempt, int clientId, String node) implements Command, WireMessage {}

    /**
     * Client {@code clientId} finished a local step of this round attempt: it is working, not straggling. The round
     * deadline counts a client's silence, so that a round slowed by a busy machine or a long local procedure (every
     * client shares one inference pool) does not drop clients that are still making progress.
     */
    public record ClientProgressed(int round, int attempt, int clientId) implements Command, WireMessage {}

    /** A sharded client stopped before answering (its shard moved): its round message must be sent again. */
    public record ClientStopped(int round, int attempt, int clientId) implements Command, WireMessage {}

    /**
     * Cluster member {@code node} was removed from the cluster (it left, or crashed and was downed): the answers of
     * the open round's clients that started there will not come. Unreachability alone is not enough: a member
     * busy with a long GC or a saturated CPU comes back, and its clients' answers with it.
     */
    public record NodeLost(String node) implements Command {}

    /**
     * Faults injected on another cluster member (only the fault fields are set), sent as they happen by
     * {@code cluster.FaultRelay}. They count in the round that closes next, like this member's own: one still in
     * flight when a round closes counts in the following round, and after the last round it is not counted.
     */
    public record FaultsInjected(RoundIncidents counts) implements Command, WireMessage {}

    /** Something outside the server makes going on pointless (e.g. no inference node); stop, keeping the journal. */
    public record GiveUp(String reason) implements Command {}

    // What the server sends itself; package-private so that ServerActorStatesTest can send it too.
    record Continue() implements Command {}

    record RoundDeadline(int round, int attempt) implements Command {}

    record ResendUnconfirmed(int round, int attempt) implements Command {}

    record EvaluationFinished(Evaluator.Outcome outcome) implements Command {}

    record EvaluationProgressed(Evaluator.Progress progress) implements Command {}

    /** @param rounds every round the server runs: a personalised method's personalisation round included */
    public record Settings(String configHash, long seed, int rounds, int evalEvery,
                           Participation participation, double sampleFraction, double quorum, Duration roundDeadline,
                           int maxAttempts, int snapshotEvery) {
        /** Every client takes part in every round it is sampled for (no one held out, no personalisation). */
        public Settings(String configHash, long seed, int rounds, int evalEvery, int population, double sampleFraction,
                        double quorum, Duration roundDeadline, int maxAttempts, int snapshotEvery) {
            this(configHash, seed, rounds, evalEvery, Participation.everyone(population), sampleFraction, quorum,
                    roundDeadline, maxAttempts, snapshotEvery);
        }

        public int population() {
            return participation.population();
        }

        /** Whether the prompt after {@code round} completed rounds is scored on the test rows. */
        boolean evaluatesAfter(int round) {
            return ExperimentConfig.Experiment.evaluatesAfter(round, evalEvery, rounds);
        }
    }

    public static final String PERSISTENCE_ID = "experiment";
    private static final int KEPT_SNAPSHOTS = 2;

    private final ActorContext<Command> context;
    private final TimerScheduler<Command> timers;
    private final Settings settings;
    private final FederatedMethod method;
    private final ActorRef<InferencePool.Request> pool;
    private final Evaluator.TestSet testSet;
    private final RunListener listener;
    private final ActorRef<Evaluator.Reply> evaluationReplies;

    // Transient: measurements of the live run and what is in flight; never needed to rebuild state.
    private final IncidentTally incidents;
    private final OpenRoundHandlers round;
    /** An evaluator runs (the journal says only that an evaluation is due): a second one must not start. */
    private boolean evaluating;
    private CommandHandler<Command, ServerEvent, ServerState> commandHandler;

    public static Behavior<Command> create(Settings settings, FederatedMethod method,
                                           ClientDirectory clients,
                                           ActorRef<InferencePool.Request> pool, Evaluator.TestSet testSet,
                                           FaultInjector faults, RunListener listener) {
        return Behaviors.setup(context -> Behaviors.withTimers(timers ->
                new ServerActor(context, timers, settings, method, clients, pool, testSet, faults, listener)));
    }

    private ServerActor(ActorContext<Command> context, TimerScheduler<Command> timers, Settings settings,
                        FederatedMethod method, ClientDirectory clients,
                        ActorRef<InferencePool.Request> pool, Evaluator.TestSet testSet, FaultInjector faults,
                        RunListener listener) {
        super(PersistenceId.ofUniqueId(PERSISTENCE_ID));
        this.context = context;
        this.timers = timers;
        this.settings = settings;
        this.method = method;
        this.pool = pool;
        this.testSet = testSet;
        this.listener = listener;
        this.incidents = new IncidentTally(faults);
        this.round = new OpenRoundHandlers(context, timers, Effect(), settings, method, clients, listener, incidents);
        this.evaluationReplies = context.messageAdapter(Evaluator.Reply.class,
                reply -> reply instanceof Evaluator.Outcome outcome ? new EvaluationFinished(outcome)
                        : new EvaluationProgressed((Evaluator.Progress) reply));
    }

    @Override
    public ServerState emptyState() {
        return ServerState.empty();
    }

    @Override
    public EventHandler<ServerState, ServerEvent> eventHandler() {
        return (state, event) -> state.apply(event, method);
    }

    /**
     * A snapshot about every {@code snapshotEvery} rounds' worth of events, after which older snapshots and events
     * are deleted, keeping the newest two snapshots and the events since the older of them, so the journal stays the
     * size of a few rounds however long the run: a method's uploads may be large (a client's whole local state with
     * its d x d covariance is 2.3 MB at d = 500), and with every event kept a 50-round run of 10 clients wrote a
     * 1.2 GB journal. Akka 2.8
     * deletes events only for snapshots counted in events, so a snapshot may fall inside a round; the state then
     * holds the open round, as it does after a replay. Recovery needs only the newest snapshot and the events after
     * it; the older one and its events are kept so the state can be rebuilt without the newest.
     */
    @Override
    public RetentionCriteria retentionCriteria() {
        return RetentionCriteria.snapshotEvery(eventsPerSnapshot(settings), KEPT_SNAPSHOTS).withDeleteEventsOnSnapshot();
    }

    /** Rounds' worth of events between snapshots: each round opens, accepts one result per sampled client, closes. */
    private static int eventsPerSnapshot(Settings settings) {
        int perRound = ClientSampler.size(settings.population(), settings.sampleFraction()) + 2;
        return Math.multiplyExact(settings.snapshotEvery(), perRound);
    }

    @Override
    public SignalHandler<ServerState> signalHandler() {
        return newSignalHandlerBuilder()
                .onSignal(RecoveryCompleted.instance(), state -> {
                    if (phaseOf(state) == ServerPhase.REFUSED) {
                        listener.onRefused("this run folder's journal belongs to another configuration (journal "
                                + state.configHash() + ", given " + settings.configHash() + "); refusing to mix "
                                + "them, nothing was changed");
                    } else {
                        listener.onRecovered(state, finalRounds(state));
                    }
                    context.getSelf().tell(new Continue());
                })
                .onSignal(RecoveryFailed.class, (state, failed) ->
                        listener.onRefused("the journal cannot be read back (damaged or from an incompatible "
                                + "version); it was left untouched: " + failed.getFailure().getMessage()))
                .build();
    }

    /** Built once: Akka asks for the command handler for every command. */
    @Override
    public CommandHandler<Command, ServerEvent, ServerState> commandHandler() {
        if (commandHandler == null) {
            commandHandler = byPhase();
        }
        return commandHandler;
    }

    /**
     * One block per {@link ServerPhase}. {@code Continue} takes the phase's next step; Akka uses the first handler
     * registered for the state and the command, and fails on a command that none handles, so the blocks after the
     * phases' own say what every phase but {@link ServerPhase#ROUND_OPEN} does with a round's messages, and what
     * all of them do alike. Commands that arrive while an event is written, or the journal is read, are handled in
     * the phase the event leaves the server in, before the {@code Continue} that moves it on.
     */
    private CommandHandler<Command, ServerEvent, ServerState> byPhase() {
        CommandHandlerBuilder<Command, ServerEvent, ServerState> builder = newCommandHandlerBuilder();
        builder.forState(in(ServerPhase.NOT_STARTED))
                .onCommand(Continue.class, this::onStart);
        builder.forState(in(ServerPhase.REFUSED))
                .onCommand(Continue.class, this::onRefused);
        builder.forState(in(ServerPhase.EVALUATING))
                .onCommand(Continue.class, this::onEvaluate)
                .onCommand(EvaluationFinished.class, this::onEvaluationFinished)
                .onCommand(EvaluationProgressed.class, this::onEvaluationProgressed);
        builder.forState(in(ServerPhase.ROUND_OPEN))
                .onCommand(Continue.class, round::onContinue)
                .onCommand(ClientReport.class, round::onClientReport)
                .onCommand(ClientFailed.class, round::onClientFailed)
                .onCommand(ClientStarted.class, round::onClientStarted)
                .onCommand(ClientProgressed.class, round::onClientProgressed)
                .onCommand(ClientStopped.class, round::onClientStopped)
                .onCommand(NodeLost.class, round::onNodeLost)
                .onCommand(ResendUnconfirmed.class, round::onResendUnconfirmed)
                .onCommand(RoundDeadline.class, round::onRoundDeadline);
        builder.forState(in(ServerPhase.BETWEEN_ROUNDS))
                .onCommand(Continue.class, this::onNextRound);
        builder.forState(in(ServerPhase.DONE))
                .onCommand(Continue.class, this::onDone);
        // No round open: what clients and round timers send belongs to a round that closed (or to none yet). It
        // comes in every phase, late answers while an evaluation runs, and between rounds those that arrived while
        // the RoundClosed event was written.
        builder.forState(in(ServerPhase.ROUND_OPEN).negate())
                .onCommand(ClientReport.class, this::onClientReportOutsideRound)
                .onCommand(ClientFailed.class, this::onRoundMessageOutsideRound)
                .onCommand(ClientStarted.class, this::onRoundMessageOutsideRound)
                .onCommand(ClientProgressed.class, this::onRoundMessageOutsideRound)
                .onCommand(ClientStopped.class, this::onRoundMessageOutsideRound)
                .onCommand(NodeLost.class, this::onRoundMessageOutsideRound)
                .onCommand(RoundDeadline.class, this::onRoundMessageOutsideRound)
                .onCommand(ResendUnconfirmed.class, this::onResendOutsideRound);
        builder.forAnyState()
                .onCommand(FaultsInjected.class, this::onFaultsInjected)
                .onCommand(GiveUp.class, this::onGiveUp)
                // Only the evaluating phase starts an evaluator, and only its outcome's event ends that phase, so
                // the evaluator's replies come in no other; were one to, it is handled as there.
                .onCommand(EvaluationFinished.class, this::onEvaluationFinished)
                .onCommand(EvaluationProgressed.class, this::onEvaluationProgressed);
        return builder.build();
    }

    private ServerPhase phaseOf(ServerState state) {
        return ServerPhase.of(state, settings);
    }

    private Predicate<ServerState> in(ServerPhase phase) {
        return state -> phaseOf(state) == phase;
    }

    /** A fresh run folder: the first event says which configuration the journal belongs to. */
    private Effect<ServerEvent, ServerState> onStart() {
        return Effect().persist(new ServerEvent.ExperimentStarted(settings.configHash()))
                .thenRun(this::continueLater);
    }

    private void continueLater(ServerState state) {
        context.getSelf().tell(new Continue());
    }

    /** Refused at recovery (the listener was told): stop without writing anything. */
    private Effect<ServerEvent, ServerState> onRefused() {
        return Effect().none().thenStop();
    }

    /** The zero-shot evaluation comes first; otherwise the one after the round that just closed. */
    private Effect<ServerEvent, ServerState> onEvaluate(ServerState state, Continue next) {
        if (!state.evaluated(0)) {
            startEvaluation(0, null);
        } else {
            startEvaluation(state.roundsCompleted(), method.evaluationPrompt(state.global()));
        }
        return Effect().none();
    }

    private Effect<ServerEvent, ServerState> onNextRound(ServerState state, Continue next) {
        return round.open(state.roundsCompleted() + 1, 1);
    }

    /** A run that finished before (resumed again) journals nothing more, and reports its end again. */
    private Effect<ServerEvent, ServerState> onDone(ServerState state, Continue next) {
        if (!state.finished()) {
            return Effect().persist(new ServerEvent.ExperimentFinished(state.roundsCompleted()))
                    .thenRun(listener::onFinished).thenStop();
        }
        listener.onFinished(state);
        return Effect().none().thenStop();
    }

    /**
     * With no round open the screen finds every answer late (its round closed) or refused (no such round is open),
     * and counts it in the round that closes next, as while a round is open.
     */
    private Effect<ServerEvent, ServerState> onClientReportOutsideRound(ServerState state, ClientReport report) {
        ResultScreen.Verdict verdict = ResultScreen.screen(state, report.upload(), report.attempt(), method);
        incidents.refused(verdict, report.upload().clientId(), context.getLog());
        return Effect().none();
    }

    /**
     * A client's failure, start, progress or stop, a removed member or a deadline, with no round open: there is no
     * one to drop, and the next attempt starts knowing nothing of where its clients run.
     */
    private Effect<ServerEvent, ServerState> onRoundMessageOutsideRound() {
        return Effect().none();
    }

    /** A resend timer that fired as its attempt closed: it must not keep firing. */
    private Effect<ServerEvent, ServerState> onResendOutsideRound() {
        timers.cancel(OpenRoundHandlers.RESEND_TIMER);
        return Effect().none();
    }

    private Effect<ServerEvent, ServerState> onGiveUp(ServerState state, GiveUp giveUp) {
        listener.onFailed(giveUp.reason() + "; everything up to round " + state.roundsCompleted()
                + " is stored, and `fedbpt resume` goes on from there");
        return Effect().none().thenStop();
    }

    private Effect<ServerEvent, ServerState> onFaultsInjected(FaultsInjected injected) {
        incidents.faultsElsewhere(injected.counts());
        return Effect().none();
    }

    private List<RoundSummary> finalRounds(ServerState state) {
        return state.rounds().stream()
                .filter(summary -> !settings.evaluatesAfter(summary.round()) || summary.testAccuracy() != null)
                .toList();
    }

    private void startEvaluation(int round, Prompt prompt) {
        if (evaluating) {
            return;
        }
        evaluating = true;
        context.spawn(Evaluator.create(round, prompt, testSet, pool, evaluationReplies), "evaluate-round-" + round);
    }

    private Effect<ServerEvent, ServerState> onEvaluationProgressed(EvaluationProgressed progressed) {
        listener.onEvaluationProgress(progressed.progress());
        return Effect().none();
    }

    private Effect<ServerEvent, ServerState> onEvaluationFinished(EvaluationFinished finished) {
        evaluating = false;
        Evaluator.Outcome outcome = finished.outcome();
        if (outcome.failure() != null) {
            listener.onFailed("evaluation after round " + outcome.round() + " failed: " + outcome.failure());
            return Effect().none().thenStop();
        }
        return Effect().persist(new ServerEvent.PromptEvaluated(outcome.round(), outcome.accuracy(),
                        outcome.taskMetrics(), outcome.confusion(), outcome.elapsed().toMillis()))
                .thenRun(next -> {
                    if (outcome.round() == 0) {
                        listener.onZeroShot(outcome.accuracy(), outcome.taskMetrics(), outcome.confusion());
                    } else {
                        listener.onRoundCompleted(next.rounds().get(outcome.round() - 1), next);
                    }
                    context.getSelf().tell(new Continue());
                });
    }
}
