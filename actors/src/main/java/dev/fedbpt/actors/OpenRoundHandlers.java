package dev.fedbpt.actors;

import akka.actor.typed.DispatcherSelector;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.TimerScheduler;
import akka.persistence.typed.javadsl.Effect;
import akka.persistence.typed.javadsl.EffectFactories;
import dev.fedbpt.actors.cluster.ClientPlacement;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.RoundNumbers;
import dev.fedbpt.engine.method.Upload;
import dev.fedbpt.persistence.OpenRound;
import dev.fedbpt.persistence.ServerEvent;
import dev.fedbpt.persistence.ServerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * {@link ServerActor}'s {@link ServerPhase#ROUND_OPEN} phase: how a round attempt opens, is dispatched, collects its
 * clients' answers and closes, with what the live attempt measures (never journalled, never needed to rebuild
 * state). Every handler runs with a round open; the round and attempt a message names are still compared with it,
 * since answers and timers of an earlier attempt of the same round arrive late.
 */
final class OpenRoundHandlers {
    static final String DEADLINE_TIMER = "deadline";
    static final String RESEND_TIMER = "resend";
    private static final String MISSED_DEADLINE = "missed the round deadline";

    /** How often round messages that no client confirmed are sent again (cluster only, see ClientDirectory). */
    private static final Duration RESEND_UNCONFIRMED = Duration.ofSeconds(3);

    private final ActorContext<ServerActor.Command> context;
    private final TimerScheduler<ServerActor.Command> timers;
    private final EffectFactories<ServerEvent, ServerState> effects;
    private final ServerActor.Settings settings;
    private final FederatedMethod method;
    private final ClientDirectory clients;
    private final RunListener listener;
    private final IncidentTally incidents;

    private long roundStartNanos;
    /** When each client of the open round attempt last reported progress (absent: not since the attempt began). */
    private final Map<Integer, Long> lastProgressNanos = new HashMap<>();
    private long roundForwardRows;
    /** Where each client of the open round runs, and which members were removed (cluster runs only). */
    private final ClientPlacement placement = new ClientPlacement();
    /** What every client of the open round attempt receives (the method configures it once per dispatch). */
    private Downlink downlink;

    OpenRoundHandlers(ActorContext<ServerActor.Command> context, TimerScheduler<ServerActor.Command> timers,
                      EffectFactories<ServerEvent, ServerState> effects, ServerActor.Settings settings,
                      FederatedMethod method, ClientDirectory clients, RunListener listener,
                      IncidentTally incidents) {
        this.context = context;
        this.timers = timers;
        this.effects = effects;
        this.settings = settings;
        this.method = method;
        this.clients = clients;
        this.listener = listener;
        this.incidents = incidents;
    }

    /** Journals attempt {@code attempt} of round {@code round} with the clients it samples, then dispatches it. */
    Effect<ServerEvent, ServerState> open(int round, int attempt) {
        int[] sampled = settings.participation().clients(settings.seed(), RoundNumbers.index(round),
                RoundNumbers.index(attempt), settings.sampleFraction());
        return effects.persist(new ServerEvent.RoundOpened(round, attempt, sampled))
                .thenRun(state -> dispatch(state.open(), state));
    }

    /**
     * The round was open when the journal was read back: what its clients were sent died with the last run, so the
     * clients whose results were not stored are sent it again, and its deadline starts over.
     */
    Effect<ServerEvent, ServerState> onContinue(ServerState state, ServerActor.Continue next) {
        dispatch(state.open(), state);
        return effects.none();
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
        timers.startSingleTimer(DEADLINE_TIMER, new ServerActor.RoundDeadline(open.round(), open.attempt()),
                settings.roundDeadline());
        if (clients.confirmsStarts()) {
            timers.startTimerWithFixedDelay(RESEND_TIMER, new ServerActor.ResendUnconfirmed(open.round(),
                    open.attempt()), RESEND_UNCONFIRMED);
        }
        if (open.allAnswered()) {
            context.getSelf().tell(new ServerActor.RoundDeadline(open.round(), open.attempt()));
        }
    }

    private void sendRound(int clientId, OpenRound open, ServerState state) {
        clients.train(clientId, new ClientActor.Train(open.round(), open.attempt(), downlink,
                state.memoryOf(clientId), context.getSelf()));
    }

    Effect<ServerEvent, ServerState> onClientReport(ServerState state, ServerActor.ClientReport report) {
        Upload result = report.upload();
        ResultScreen.Verdict verdict = ResultScreen.screen(state, result, report.attempt(), method);
        if (incidents.refused(verdict, result.clientId(), context.getLog())) {
            return effects.none();
        }
        roundForwardRows += report.forwardRows();
        incidents.nonFiniteScores(report.nonFiniteScores());
        return effects.persist(new ServerEvent.ResultAccepted(result.round(), result, report.memory()))
                .thenRun(this::closeIfAllAnswered);
    }

    Effect<ServerEvent, ServerState> onClientFailed(ServerState state, ServerActor.ClientFailed failed) {
        OpenRound open = state.open();
        if (!isOpen(open, failed.round(), failed.attempt()) || !open.isSampled(failed.clientId())
                || open.hasAnswered(failed.clientId())) {
            return effects.none();
        }
        context.getLog().warn("client {} dropped from round {}: {}", failed.clientId(), failed.round(),
                failed.reason());
        return effects.persist(new ServerEvent.ClientDropped(failed.round(), failed.clientId(), failed.reason()))
                .thenRun(this::closeIfAllAnswered);
    }

    /** A client that starts on a member already removed is dropped at once: its answer would not come. */
    Effect<ServerEvent, ServerState> onClientStarted(ServerState state, ServerActor.ClientStarted started) {
        OpenRound open = state.open();
        if (!isOpen(open, started.round(), started.attempt())) {
            return effects.none();
        }
        if (placement.started(started.clientId(), started.node()) && open.isSampled(started.clientId())
                && !open.hasAnswered(started.clientId())) {
            return effects.persist(droppedWithMember(open, started.clientId(), started.node()))
                    .thenRun(this::closeIfAllAnswered);
        }
        return effects.none();
    }

    Effect<ServerEvent, ServerState> onClientProgressed(ServerState state, ServerActor.ClientProgressed progressed) {
        if (isOpen(state.open(), progressed.round(), progressed.attempt())) {
            lastProgressNanos.put(progressed.clientId(), System.nanoTime());
        }
        return effects.none();
    }

    Effect<ServerEvent, ServerState> onClientStopped(ServerState state, ServerActor.ClientStopped stopped) {
        if (isOpen(state.open(), stopped.round(), stopped.attempt())) {
            placement.stopped(stopped.clientId());
        }
        return effects.none();
    }

    private static ServerEvent.ClientDropped droppedWithMember(OpenRound open, int clientId, String node) {
        return new ServerEvent.ClientDropped(open.round(), clientId, ClientPlacement.dropReason(node));
    }

    /** The clients that started on a removed member are dropped now rather than at the round's deadline. */
    Effect<ServerEvent, ServerState> onNodeLost(ServerState state, ServerActor.NodeLost lost) {
        OpenRound open = state.open();
        List<ServerEvent> drops = new ArrayList<>();
        for (int clientId : placement.lost(lost.node(), open.pending())) {
            drops.add(droppedWithMember(open, clientId, lost.node()));
        }
        if (drops.isEmpty()) {
            return effects.none();
        }
        context.getLog().warn("cluster member {} was removed: {} clients of round {} dropped", lost.node(),
                drops.size(), open.round());
        return effects.persist(drops).thenRun(this::closeIfAllAnswered);
    }

    /**
     * A round message sent to a member that then died is lost; once the member is removed, its shards live
     * elsewhere and the same message reaches the client there. Clients ignore a message for the round they run.
     */
    Effect<ServerEvent, ServerState> onResendUnconfirmed(ServerState state, ServerActor.ResendUnconfirmed resend) {
        OpenRound open = state.open();
        if (!isOpen(open, resend.round(), resend.attempt())) {
            timers.cancel(RESEND_TIMER);
            return effects.none();
        }
        for (int clientId : placement.unconfirmed(open.pending())) {
            sendRound(clientId, open, state);
        }
        return effects.none();
    }

    /**
     * Drops the clients silent for a whole deadline; while some still work, looks again when the quietest of them
     * could expire, and once every sampled client has answered or been dropped, closes the attempt.
     */
    Effect<ServerEvent, ServerState> onRoundDeadline(ServerState state, ServerActor.RoundDeadline deadline) {
        OpenRound open = state.open();
        if (!isOpen(open, deadline.round(), deadline.attempt())) {
            return effects.none();
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
            timers.startSingleTimer(DEADLINE_TIMER, new ServerActor.RoundDeadline(open.round(), open.attempt()),
                    Duration.ofNanos(nextExpiry));
        }
        if (drops.isEmpty()) {
            return nextExpiry == Long.MAX_VALUE ? closeOrResample(state) : effects.none();
        }
        return effects.persist(drops).thenRun(this::closeIfAllAnswered);
    }

    /** Whether the message's round attempt is the open one (not an earlier attempt's, answering late). */
    private static boolean isOpen(OpenRound open, int round, int attempt) {
        return open.round() == round && open.attempt() == attempt;
    }

    /** Run after an answer or a drop is journalled, so the round is still open. */
    private void closeIfAllAnswered(ServerState state) {
        OpenRound open = state.open();
        if (open.allAnswered()) {
            context.getSelf().tell(new ServerActor.RoundDeadline(open.round(), open.attempt()));
        }
    }

    private Effect<ServerEvent, ServerState> closeOrResample(ServerState state) {
        OpenRound open = state.open();
        timers.cancel(DEADLINE_TIMER);
        timers.cancel(RESEND_TIMER);
        int needed = (int) Math.ceil(settings.quorum() * open.sampled().length);
        if (open.accepted().size() >= Math.max(1, needed)) {
            long wallMs = (System.nanoTime() - roundStartNanos) / 1_000_000;
            return effects.persist(new ServerEvent.RoundClosed(open.round(), roundForwardRows, wallMs,
                    incidents.drain())).thenRun(this::onRoundClosed);
        }
        if (open.attempt() < settings.maxAttempts()) {
            context.getLog().warn("round {} attempt {}: {} of {} results, quorum {}; re-sampling", open.round(),
                    open.attempt(), open.accepted().size(), open.sampled().length, needed);
            return open(open.round(), open.attempt() + 1);
        }
        long late = open.dropped().stream().filter(d -> d.reason().equals(MISSED_DEADLINE)).count();
        listener.onFailed("round " + open.round() + " reached no quorum in " + open.attempt() + " attempts (the last: "
                + open.accepted().size() + " of " + open.sampled().length + " results, " + needed + " needed"
                + (late == 0 ? "" : "; " + late + " clients went the round deadline of "
                        + settings.roundDeadline().toMillis() / 1000.0 + " s without finishing a local step: if"
                        + " one step takes that long here, raise federation.round-deadline")
                + "); everything up to round " + (open.round() - 1) + " is stored, and `fedbpt resume` retries"
                + " this round");
        return effects.none().thenStop();
    }

    /** A round that is not evaluated is complete now; one that is, once its evaluation is journalled. */
    private void onRoundClosed(ServerState state) {
        int round = state.roundsCompleted();
        if (!settings.evaluatesAfter(round)) {
            listener.onRoundCompleted(state.rounds().get(round - 1), state);
        }
        context.getSelf().tell(new ServerActor.Continue());
    }
}
