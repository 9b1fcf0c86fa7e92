package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.DispatcherSelector;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.TimerScheduler;
import akka.persistence.typed.PersistenceId;
import akka.persistence.typed.RecoveryCompleted;
import akka.persistence.typed.RecoveryFailed;
import akka.persistence.typed.javadsl.CommandHandler;
import akka.persistence.typed.javadsl.Effect;
import akka.persistence.typed.javadsl.EventHandler;
import akka.persistence.typed.javadsl.EventSourcedBehavior;
import akka.persistence.typed.javadsl.RetentionCriteria;
import akka.persistence.typed.javadsl.SignalHandler;
import dev.fedbpt.actors.cluster.ClientPlacement;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.method.ClientMemory;
import dev.fedbpt.engine.method.ClientSampler;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.Participation;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.RoundNumbers;
import dev.fedbpt.engine.method.Upload;
import dev.fedbpt.persistence.OpenRound;
import dev.fedbpt.persistence.RoundIncidents;
import dev.fedbpt.persistence.RoundSummary;
import dev.fedbpt.persistence.ServerEvent;
import dev.fedbpt.persistence.ServerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The federated server, event-sourced: every decision (round opened, result accepted, client dropped, round
 * closed, prompt evaluated) is journalled before it takes effect, and the global state is rebuilt by replaying
 * the method's aggregation over the journal. After a crash, recovery replays to the exact state and {@link #onContinue}
 * picks up the first unfinished step: the clients of an open round whose results were not yet stored run again.
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

    private record Continue() implements Command {}

    private record RoundDeadline(int round, int attempt) implements Command {}

    private record ResendUnconfirmed(int round, int attempt) implements Command {}

    private record EvaluationFinished(Evaluator.Outcome outcome) implements Command {}

    private record EvaluationProgressed(Evaluator.Progress progress) implements Command {}

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
    }

    public static final String PERSISTENCE_ID = "experiment";
    private static final int KEPT_SNAPSHOTS = 2;
    private static final String MISSED_DEADLINE = "missed the round deadline";

    /** How often round messages that no client confirmed are sent again (cluster only, see ClientDirectory). */
    private static final Duration RESEND_UNCONFIRMED = Duration.ofSeconds(3);

    private final ActorContext<Command> context;
    private final TimerScheduler<Command> timers;
    private final Settings settings;
    private final FederatedMethod method;
    private final ClientDirectory clients;
    private final ActorRef<InferencePool.Request> pool;
    private final Evaluator.TestSet testSet;
    private final RunListener listener;
    private final ActorRef<Evaluator.Reply> evaluationReplies;
    private final FaultInjector faults;

    // Transient: measurements of the live round and what is in flight; never needed to rebuild state.
    private boolean evaluating;
    private long roundStartNanos;
    /** When each client of the open round attempt last reported progress (absent: not since the attempt began). */
    private final Map<Integer, Long> lastProgressNanos = new HashMap<>();
    private long roundForwardRows;
    private long nonFiniteScores;
    private long rejectedResults;
    private long lateResults;
    /** Faults other cluster members reported since the last round closed. */
    private RoundIncidents faultsElsewhere = RoundIncidents.NONE;
    /** Where each client of the open round runs, and which members were removed (cluster runs only). */
    private final ClientPlacement placement = new ClientPlacement();
    /** What every client of the open round attempt receives (the method configures it once per dispatch). */
    private Downlink downlink;

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
        this.clients = clients;
        this.pool = pool;
        this.testSet = testSet;
        this.listener = listener;
        this.faults = faults;
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
                    if (belongsToAnotherConfiguration(state)) {
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

    @Override
    public CommandHandler<Command, ServerEvent, ServerState> commandHandler() {
        return newCommandHandlerBuilder().forAnyState()
                .onCommand(Continue.class, (state, command) -> onContinue(state))
                .onCommand(ClientReport.class, this::onClientReport)
                .onCommand(ClientFailed.class, this::onClientFailed)
                .onCommand(RoundDeadline.class, this::onRoundDeadline)
                .onCommand(EvaluationFinished.class, this::onEvaluationFinished)
                .onCommand(EvaluationProgressed.class, (state, progressed) -> onEvaluationProgressed(progressed))
                .onCommand(ClientStarted.class, this::onClientStarted)
                .onCommand(ClientProgressed.class, this::onClientProgressed)
                .onCommand(NodeLost.class, this::onNodeLost)
                .onCommand(ClientStopped.class, this::onClientStopped)
                .onCommand(ResendUnconfirmed.class, this::onResendUnconfirmed)
                .onCommand(GiveUp.class, this::onGiveUp)
                .onCommand(FaultsInjected.class, this::onFaultsInjected)
                .build();
    }

    /** Takes the next step of the experiment from wherever the state says it stands. */
    private Effect<ServerEvent, ServerState> onContinue(ServerState state) {
        if (!state.started()) {
            return Effect().persist(new ServerEvent.ExperimentStarted(settings.configHash()))
                    .thenRun(this::continueLater);
        }
        if (belongsToAnotherConfiguration(state)) {
            return Effect().none().thenStop(); // refused at recovery
        }
        if (!state.evaluated(0)) {
            startEvaluation(0, null);
            return Effect().none();
        }
        if (state.open() != null) {
            dispatch(state.open(), state);
            return Effect().none();
        }
        int completed = state.roundsCompleted();
        if (completed > 0 && needsEvaluation(completed) && !state.evaluated(completed)) {
            startEvaluation(completed, method.evaluationPrompt(state.global()));
            return Effect().none();
        }
        if (completed < settings.rounds()) {
            return openRound(completed + 1, 1);
        }
        if (!state.finished()) {
            return Effect().persist(new ServerEvent.ExperimentFinished(completed)).thenRun(listener::onFinished)
                    .thenStop();
        }
        listener.onFinished(state);
        return Effect().none().thenStop();
    }

    private boolean belongsToAnotherConfiguration(ServerState state) {
        return state.started() && !state.configHash().equals(settings.configHash());
    }

    private void continueLater(ServerState state) {
        context.getSelf().tell(new Continue());
    }

    private Effect<ServerEvent, ServerState> openRound(int round, int attempt) {
        int[] sampled = settings.participation().clients(settings.seed(), RoundNumbers.index(round),
                RoundNumbers.index(attempt), settings.sampleFraction());
        return Effect().persist(new ServerEvent.RoundOpened(round, attempt, sampled))
                .thenRun(state -> dispatch(state.open(), state));
    }

    private void dispatch(OpenRound open, ServerState state) {
        roundStartNanos = System.nanoTime();
        lastProgressNanos.clear();
        roundForwardRows = 0;
        placement.reset();
        MethodState global = state.global();
        downlink = method.configure(global, RoundNumbers.index(open.round()));
        // What the aggregation can compute ahead (FedBPT: an O(d^3) decomposition) runs while the clients work,
        // off this actor's thread.
        CompletableFuture.runAsync(() -> method.prepare(global),
                context.getSystem().dispatchers().lookup(DispatcherSelector.blocking()));
        clients.publish(open.round(), downlink, state.lastRound() == null ? null
                : method.downlinkUpdate(global, RoundNumbers.index(open.round()), state.lastRound().uploads()));
        for (int clientId : open.pending()) {
            sendRound(clientId, open, state);
        }
        timers.startSingleTimer("deadline", new RoundDeadline(open.round(), open.attempt()),
                settings.roundDeadline());
        if (clients.confirmsStarts()) {
            timers.startTimerWithFixedDelay("resend", new ResendUnconfirmed(open.round(), open.attempt()),
                    RESEND_UNCONFIRMED);
        }
        if (open.allAnswered()) {
            context.getSelf().tell(new RoundDeadline(open.round(), open.attempt()));
        }
    }

    private void sendRound(int clientId, OpenRound open, ServerState state) {
        clients.train(clientId, new ClientActor.Train(open.round(), open.attempt(), downlink,
                state.memoryOf(clientId), context.getSelf()));
    }

    private Effect<ServerEvent, ServerState> onClientReport(ServerState state, ClientReport report) {
        Upload result = report.upload();
        ResultScreen.Verdict verdict = ResultScreen.screen(state, result, report.attempt(), method);
        if (verdict.kind() == ResultScreen.Kind.LATE) {
            lateResults++;
            context.getLog().warn("ignored late result of client {}: {}", result.clientId(), verdict.reason());
            return Effect().none();
        }
        if (verdict.kind() == ResultScreen.Kind.REJECT) {
            rejectedResults++;
            context.getLog().warn("rejected result of client {}: {}", result.clientId(), verdict.reason());
            return Effect().none();
        }
        roundForwardRows += report.forwardRows();
        nonFiniteScores += report.nonFiniteScores();
        return Effect().persist(new ServerEvent.ResultAccepted(result.round(), result, report.memory()))
                .thenRun(this::closeIfAllAnswered);
    }

    private Effect<ServerEvent, ServerState> onClientFailed(ServerState state, ClientFailed failed) {
        OpenRound open = state.open();
        if (open == null || open.round() != failed.round() || open.attempt() != failed.attempt()
                || !open.isSampled(failed.clientId()) || open.hasAnswered(failed.clientId())) {
            return Effect().none();
        }
        context.getLog().warn("client {} dropped from round {}: {}", failed.clientId(), failed.round(),
                failed.reason());
        return Effect().persist(new ServerEvent.ClientDropped(failed.round(), failed.clientId(), failed.reason()))
                .thenRun(this::closeIfAllAnswered);
    }

    private Effect<ServerEvent, ServerState> onClientStarted(ServerState state, ClientStarted started) {
        OpenRound open = state.open();
        if (open == null || open.round() != started.round() || open.attempt() != started.attempt()) {
            return Effect().none();
        }
        if (placement.started(started.clientId(), started.node()) && open.isSampled(started.clientId())
                && !open.hasAnswered(started.clientId())) {
            return Effect().persist(droppedWithMember(open, started.clientId(), started.node()))
                    .thenRun(this::closeIfAllAnswered);
        }
        return Effect().none();
    }

    private Effect<ServerEvent, ServerState> onClientProgressed(ServerState state, ClientProgressed progressed) {
        OpenRound open = state.open();
        if (open != null && open.round() == progressed.round() && open.attempt() == progressed.attempt()) {
            lastProgressNanos.put(progressed.clientId(), System.nanoTime());
        }
        return Effect().none();
    }

    private Effect<ServerEvent, ServerState> onClientStopped(ServerState state, ClientStopped stopped) {
        OpenRound open = state.open();
        if (open != null && open.round() == stopped.round() && open.attempt() == stopped.attempt()) {
            placement.stopped(stopped.clientId());
        }
        return Effect().none();
    }

    private static ServerEvent.ClientDropped droppedWithMember(OpenRound open, int clientId, String node) {
        return new ServerEvent.ClientDropped(open.round(), clientId, ClientPlacement.dropReason(node));
    }

    /** The clients that started on a removed member are dropped now rather than at the round's deadline. */
    private Effect<ServerEvent, ServerState> onNodeLost(ServerState state, NodeLost lost) {
        OpenRound open = state.open();
        if (open == null) {
            return Effect().none();
        }
        List<ServerEvent> drops = new ArrayList<>();
        for (int clientId : placement.lost(lost.node(), open.pending())) {
            drops.add(droppedWithMember(open, clientId, lost.node()));
        }
        if (drops.isEmpty()) {
            return Effect().none();
        }
        context.getLog().warn("cluster member {} was removed: {} clients of round {} dropped", lost.node(),
                drops.size(), open.round());
        return Effect().persist(drops).thenRun(this::closeIfAllAnswered);
    }

    /**
     * A round message sent to a member that then died is lost; once the member is removed, its shards live
     * elsewhere and the same message reaches the client there. Clients ignore a message for the round they run.
     */
    private Effect<ServerEvent, ServerState> onResendUnconfirmed(ServerState state, ResendUnconfirmed resend) {
        OpenRound open = state.open();
        if (open == null || open.round() != resend.round() || open.attempt() != resend.attempt()) {
            timers.cancel("resend");
            return Effect().none();
        }
        for (int clientId : placement.unconfirmed(open.pending())) {
            sendRound(clientId, open, state);
        }
        return Effect().none();
    }

    private Effect<ServerEvent, ServerState> onGiveUp(ServerState state, GiveUp giveUp) {
        listener.onFailed(giveUp.reason() + "; everything up to round " + state.roundsCompleted()
                + " is stored, and `fedbpt resume` goes on from there");
        return Effect().none().thenStop();
    }

    private Effect<ServerEvent, ServerState> onRoundDeadline(ServerState state, RoundDeadline deadline) {
        OpenRound open = state.open();
        if (open == null || open.round() != deadline.round() || open.attempt() != deadline.attempt()) {
            return Effect().none();
        }
        long now = System.nanoTime();
        long allowed = settings.roundDeadline().toNanos();
        List<ServerEvent> drops = new ArrayList<>();
        long nextExpiry = Long.MAX_VALUE;
        for (int clientId : open.pending()) {
            long silentFor = now - lastProgressNanos.getOrDefault(clientId, roundStartNanos);
            if (silentFor >= allowed) {
                drops.add(new ServerEvent.ClientDropped(open.round(), clientId, MISSED_DEADLINE));
            } else {
                nextExpiry = Math.min(nextExpiry, allowed - silentFor);
            }
        }
        if (nextExpiry != Long.MAX_VALUE) { // clients still working: look again when the quietest could expire
            timers.startSingleTimer("deadline", new RoundDeadline(open.round(), open.attempt()),
                    Duration.ofNanos(nextExpiry));
        }
        if (drops.isEmpty()) {
            return nextExpiry == Long.MAX_VALUE ? closeOrResample(state) : Effect().none();
        }
        return Effect().persist(drops).thenRun(this::closeIfAllAnswered);
    }

    private void closeIfAllAnswered(ServerState state) {
        OpenRound open = state.open();
        if (open != null && open.allAnswered()) {
            context.getSelf().tell(new RoundDeadline(open.round(), open.attempt()));
        }
    }

    private Effect<ServerEvent, ServerState> closeOrResample(ServerState state) {
        OpenRound open = state.open();
        timers.cancel("deadline");
        timers.cancel("resend");
        int needed = (int) Math.ceil(settings.quorum() * open.sampled().length);
        if (open.accepted().size() >= Math.max(1, needed)) {
            long wallMs = (System.nanoTime() - roundStartNanos) / 1_000_000;
            return Effect().persist(new ServerEvent.RoundClosed(open.round(), roundForwardRows, wallMs,
                    drainIncidents())).thenRun(this::onRoundClosed);
        }
        if (open.attempt() < settings.maxAttempts()) {
            context.getLog().warn("round {} attempt {}: {} of {} results, quorum {}; re-sampling", open.round(),
                    open.attempt(), open.accepted().size(), open.sampled().length, needed);
            return openRound(open.round(), open.attempt() + 1);
        }
        long late = open.dropped().stream().filter(d -> d.reason().equals(MISSED_DEADLINE)).count();
        listener.onFailed("round " + open.round() + " reached no quorum in " + open.attempt() + " attempts (the last: "
                + open.accepted().size() + " of " + open.sampled().length + " results, " + needed + " needed"
                + (late == 0 ? "" : "; " + late + " clients went the round deadline of "
                        + settings.roundDeadline().toMillis() / 1000.0 + " s without finishing a local step: if"
                        + " one step takes that long here, raise federation.round-deadline")
                + "); everything up to round " + (open.round() - 1) + " is stored, and `fedbpt resume` retries"
                + " this round");
        return Effect().none().thenStop();
    }

    private Effect<ServerEvent, ServerState> onFaultsInjected(ServerState state, FaultsInjected injected) {
        faultsElsewhere = faultsElsewhere.plus(injected.counts());
        return Effect().none();
    }

    /**
     * This round's incidents: faults injected (counted by this member's injector, and by other members' as they
     * reported them) plus what the server refused.
     */
    private RoundIncidents drainIncidents() {
        RoundIncidents server = new RoundIncidents(0, 0, 0, 0, 0, nonFiniteScores, rejectedResults, lateResults);
        nonFiniteScores = 0;
        rejectedResults = 0;
        lateResults = 0;
        RoundIncidents elsewhere = faultsElsewhere;
        faultsElsewhere = RoundIncidents.NONE;
        return faults.drainCounts().plus(elsewhere).plus(server);
    }

    private void onRoundClosed(ServerState state) {
        int round = state.roundsCompleted();
        if (!needsEvaluation(round)) {
            listener.onRoundCompleted(state.rounds().get(round - 1), state);
        }
        context.getSelf().tell(new Continue());
    }

    private boolean needsEvaluation(int round) {
        return ExperimentConfig.Experiment.evaluatesAfter(round, settings.evalEvery(), settings.rounds());
    }

    private List<RoundSummary> finalRounds(ServerState state) {
        return state.rounds().stream()
                .filter(summary -> !needsEvaluation(summary.round()) || summary.testAccuracy() != null)
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

    private Effect<ServerEvent, ServerState> onEvaluationFinished(ServerState state, EvaluationFinished finished) {
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
