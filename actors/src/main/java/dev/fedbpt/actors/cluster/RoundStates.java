package dev.fedbpt.actors.cluster;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import dev.fedbpt.actors.WireMessage;
import dev.fedbpt.engine.method.Downlink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Each member's copy of the open round's global state. The state carries the d x d covariance (about 2 MB at
 * d = 500), so rather than sending it inside every client's round message, the server's member publishes it here
 * and each clients member fetches it once per round, on the large-message channel; the member's clients then share
 * one instance (and one covariance decomposition, see {@code SharedStart}). Only the latest round is kept.
 */
public final class RoundStates extends AbstractBehavior<RoundStates.Command> {

    /** Spawned under this name on every member: the large-message channel is configured for its path. */
    public static final String NAME = "round-states";
    /** Where other members reach it. */
    public static final String PATH = "/user/" + NAME;

    public sealed interface Command {}

    /** On the server's member: the state clients of {@code round} start from. */
    public record Publish(int round, Downlink global) implements Command {}

    /** From a client of this member: the state of {@code round}, fetched from {@code source} if not here yet. */
    public record Get(int round, ActorRef<Command> source, ActorRef<Global> replyTo) implements Command {}

    /** Between members: ask the server's member for a round's state. */
    public record Fetch(int round, ActorRef<Command> replyTo) implements Command, WireMessage {}

    /** A round's state; {@code global} is null when that round is no longer open (its clients can stop). */
    public record Global(int round, Downlink global) implements Command, WireMessage {}

    private record Refetch(int round) implements Command {}

    private static final Duration REFETCH_AFTER = Duration.ofSeconds(5);

    private final TimerScheduler<Command> timers;
    private int round = -1;
    private Downlink global;
    private int waitingRound = -1;
    private ActorRef<Command> waitingSource;
    private final List<ActorRef<Global>> waiting = new ArrayList<>();

    public static Behavior<Command> create() {
        return Behaviors.setup(context -> Behaviors.withTimers(timers -> new RoundStates(context, timers)));
    }

    private RoundStates(ActorContext<Command> context, TimerScheduler<Command> timers) {
        super(context);
        this.timers = timers;
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Publish.class, this::onPublish)
                .onMessage(Get.class, this::onGet)
                .onMessage(Fetch.class, this::onFetch)
                .onMessage(Global.class, this::onGlobal)
                .onMessage(Refetch.class, this::onRefetch)
                .build();
    }

    private Behavior<Command> onPublish(Publish publish) {
        round = publish.round();
        global = publish.global();
        answerWaiting(round, global);
        return this;
    }

    private Behavior<Command> onGet(Get get) {
        if (get.round() == round) {
            get.replyTo().tell(new Global(round, global));
            return this;
        }
        if (get.round() < Math.max(round, waitingRound)) {
            get.replyTo().tell(new Global(get.round(), null)); // that round is over
            return this;
        }
        if (get.round() > waitingRound) {
            answerWaiting(waitingRound, null); // clients still waiting for an older round have nothing to do
            waitingRound = get.round();
            waitingSource = get.source();
            fetch();
        }
        waiting.add(get.replyTo());
        return this;
    }

    private void fetch() {
        waitingSource.tell(new Fetch(waitingRound, getContext().getSelf()));
        timers.startSingleTimer("refetch", new Refetch(waitingRound), REFETCH_AFTER);
    }

    private Behavior<Command> onRefetch(Refetch refetch) {
        if (refetch.round() == waitingRound && !waiting.isEmpty()) {
            getContext().getLog().info("no answer for the state of round {} yet; asking again", waitingRound);
            fetch();
        }
        return this;
    }

    private Behavior<Command> onFetch(Fetch fetch) {
        fetch.replyTo().tell(new Global(fetch.round(), fetch.round() == round ? global : null));
        return this;
    }

    private Behavior<Command> onGlobal(Global answer) {
        if (answer.global() != null && answer.round() > round) {
            round = answer.round();
            global = answer.global();
        }
        answerWaiting(answer.round(), answer.global());
        return this;
    }

    private void answerWaiting(int answeredRound, Downlink state) {
        if (answeredRound != waitingRound || waiting.isEmpty()) {
            return;
        }
        waiting.forEach(client -> client.tell(new Global(answeredRound, state)));
        waiting.clear();
        waitingRound = -1;
        timers.cancel("refetch");
    }
}
