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
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.Payload;
import dev.fedbpt.engine.method.RoundNumbers;
import dev.fedbpt.engine.method.RoundUpdate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Each member's copy of the open round's global state. The state carries the d x d covariance (about 2 MB at
 * d = 500), so rather than sending it inside every client's round message, the server's member publishes it here
 * and each clients member fetches it once per round, on the large-message channel; the member's clients then share
 * one instance (and one covariance decomposition, see {@code SharedStart}). Only the latest round is kept.
 *
 * <p>A member that holds the previous round's downlink says so when it fetches; where the method has a
 * {@link FederatedMethod#downlinkUpdate} (FedBPT: the previous round's uploads, about 41 KB at the paper's setting),
 * the server's member answers with that {@link RoundUpdate}, from which the member rebuilds the downlink and checks it
 * against the server's digest. A member that cannot (it missed a round, or what it rebuilt differs)
 * fetches the whole downlink.
 */
public final class RoundStates extends AbstractBehavior<RoundStates.Command> {

    /** Spawned under this name on every member: the large-message channel is configured for its path. */
    public static final String NAME = "round-states";
    /** Where other members reach it. */
    public static final String PATH = "/user/" + NAME;

    public sealed interface Command {}

    /**
     * On the server's member: the state clients of {@code round} start from, and the method's update that rebuilds it
     * from the previous round's ({@link FederatedMethod#downlinkUpdate}; null: none).
     */
    public record Publish(int round, Downlink global, Payload downlinkUpdate) implements Command {
        public Publish(int round, Downlink global) {
            this(round, global, null);
        }
    }

    /** From a client of this member: the state of {@code round}, fetched from {@code source} if not here yet. */
    public record Get(int round, ActorRef<Command> source, ActorRef<Global> replyTo) implements Command {}

    /**
     * Between members: ask the server's member for a round's state; {@code held} is the round whose downlink the
     * asking member holds and can rebuild from (-1: none).
     */
    public record Fetch(int round, int held, ActorRef<Command> replyTo) implements Command, WireMessage {}

    /** Between members: the encoded {@link RoundUpdate} that rebuilds {@code round}'s state from the previous one. */
    public record Update(int round, byte[] update) implements Command, WireMessage {}

    /** A round's state; {@code global} is null when that round is no longer open (its clients can stop). */
    public record Global(int round, Downlink global) implements Command, WireMessage {}

    private record Refetch(int round) implements Command {}

    private static final Duration REFETCH_AFTER = Duration.ofSeconds(5);

    private final TimerScheduler<Command> timers;
    private final FederatedMethod method; // null: this member never rebuilds a state
    private int round = -1;
    private Downlink global;
    private Payload downlinkUpdate; // on the server's member: what rebuilds `global` from the round before
    private boolean updateMade;     // whether `update` was made for the published round
    private byte[] update;          // its encoding when smaller than `global`'s, else null
    private int waitingRound = -1;
    private ActorRef<Command> waitingSource;
    private final List<ActorRef<Global>> waiting = new ArrayList<>();

    /** A member that always fetches whole states. */
    public static Behavior<Command> create() {
        return create(null);
    }

    /** @param method the run's method, with which this member rebuilds states from updates (null: never) */
    public static Behavior<Command> create(FederatedMethod method) {
        return Behaviors.setup(context -> Behaviors.withTimers(timers -> new RoundStates(context, timers, method)));
    }

    private RoundStates(ActorContext<Command> context, TimerScheduler<Command> timers, FederatedMethod method) {
        super(context);
        this.timers = timers;
        this.method = method;
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Publish.class, this::onPublish)
                .onMessage(Get.class, this::onGet)
                .onMessage(Fetch.class, this::onFetch)
                .onMessage(Global.class, this::onGlobal)
                .onMessage(Update.class, this::onUpdate)
                .onMessage(Refetch.class, this::onRefetch)
                .build();
    }

    private Behavior<Command> onPublish(Publish publish) {
        round = publish.round();
        global = publish.global();
        downlinkUpdate = publish.downlinkUpdate();
        updateMade = false;
        update = null;
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
        fetch(method != null && global != null && round == waitingRound - 1 ? round : -1);
    }

    private void fetch(int held) {
        waitingSource.tell(new Fetch(waitingRound, held, getContext().getSelf()));
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
        byte[] rebuilds = fetch.round() == round && fetch.held() == round - 1 ? update() : null;
        fetch.replyTo().tell(rebuilds != null ? new Update(round, rebuilds)
                : new Global(fetch.round(), fetch.round() == round ? global : null));
        return this;
    }

    /** The encoded update to the published round, when there is one and it is smaller than the state; else null. */
    private byte[] update() {
        if (!updateMade) { // at the first fetch that can use it
            update = downlinkUpdate == null ? null
                    : RoundUpdate.encodedIfSmaller(RoundNumbers.index(round), downlinkUpdate, global);
            updateMade = true;
        }
        return update;
    }

    private Behavior<Command> onUpdate(Update answer) {
        if (answer.round() != waitingRound) {
            return this; // an answer to a fetch this member no longer waits for
        }
        Downlink rebuilt = null;
        if (method != null && global != null && round == answer.round() - 1) {
            rebuilt = RoundUpdate.decode(answer.update()).rebuild(method, global);
        }
        if (rebuilt == null) {
            getContext().getLog().warn("the update to round {} did not rebuild the server's state here; fetching"
                    + " the whole state", answer.round());
            fetch(-1);
            return this;
        }
        return onGlobal(new Global(answer.round(), rebuilt));
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
