package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A cluster member's way to the inference pool, which may run on another member (the GPU box). It finds the pool
 * through the receptionist and keeps every request until its answer is back, so when the inference member goes
 * away the requests in flight are sent again to whichever pool appears next. If none appears within
 * {@code maxWait} of the pool going away (or within {@code firstWait} of a request that found none, before any pool
 * was seen), the requests fail with a message that says so and {@code onGone} hears the same reason. The first wait
 * is its own bound because a pool's registration reaches other members by gossip, seconds after its member is up.
 * Remote delivery is at most once, so a request left unanswered for {@link #UNANSWERED_AFTER} is sent again (scores
 * are deterministic, the first answer wins), and fails after {@link #MAX_RESENDS} such tries rather than leave its
 * requester waiting forever.
 */
public final class PoolLink extends AbstractBehavior<PoolLink.Command> {

    /** Pools register under this key; there is normally one, on the inference member. */
    public static final ServiceKey<InferencePool.Command> POOL_KEY =
            ServiceKey.create(InferencePool.Command.class, "fedbpt-inference-pool");

    public sealed interface Command
            permits InferencePool.Request, PoolsChanged, PoolReply, WaitExpired, CheckUnanswered {}

    record PoolsChanged(Receptionist.Listing listing) implements Command {}

    record PoolReply(InferencePool.Reply reply) implements Command {}

    record WaitExpired() implements Command {}

    record CheckUnanswered() implements Command {}

    /** Long enough for a full queue ahead of the request (1024 requests at a few hundred rows per second). */
    static final Duration UNANSWERED_AFTER = Duration.ofMinutes(5);
    static final int MAX_RESENDS = 3;

    /** A request and when this link last sent it. */
    private static final class Pending {
        final InferencePool.Request request;
        long sentNanos;
        int resends;

        Pending(InferencePool.Request request) {
            this.request = request;
        }
    }

    private final Duration firstWait;
    private final Duration maxWait;
    private final Consumer<String> onGone;
    private final TimerScheduler<Command> timers;
    private final ActorRef<InferencePool.Reply> replies;
    /** Requests not yet answered, by the id this link gave them (requesters' ids may collide). */
    private final Map<Long, Pending> inFlight = new LinkedHashMap<>();
    private ActorRef<InferencePool.Command> pool;
    /** The address of the pool used last; null until one is seen. */
    private String lastPool;
    private long nextId;

    public static Behavior<Command> create(Duration firstWait, Duration maxWait, Consumer<String> onGone) {
        return Behaviors.setup(context -> Behaviors.withTimers(timers ->
                new PoolLink(context, timers, firstWait, maxWait, onGone)));
    }

    private PoolLink(ActorContext<Command> context, TimerScheduler<Command> timers, Duration firstWait,
                     Duration maxWait, Consumer<String> onGone) {
        super(context);
        this.timers = timers;
        this.firstWait = firstWait;
        this.maxWait = maxWait;
        this.onGone = onGone;
        this.replies = context.messageAdapter(InferencePool.Reply.class, PoolReply::new);
        ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class,
                PoolsChanged::new);
        context.getSystem().receptionist().tell(Receptionist.subscribe(POOL_KEY, listings));
        timers.startTimerWithFixedDelay("unanswered", new CheckUnanswered(), UNANSWERED_AFTER.dividedBy(10));
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(InferencePool.Request.class, this::onRequest)
                .onMessage(PoolReply.class, this::onPoolReply)
                .onMessage(PoolsChanged.class, this::onPoolsChanged)
                .onMessage(WaitExpired.class, expired -> onWaitExpired())
                .onMessage(CheckUnanswered.class, check -> onCheckUnanswered())
                .build();
    }

    private Behavior<Command> onRequest(InferencePool.Request request) {
        long id = nextId++;
        Pending pending = new Pending(request);
        inFlight.put(id, pending);
        if (pool != null) {
            send(id, pending);
        } else if (!timers.isTimerActive("wait")) {
            timers.startSingleTimer("wait", new WaitExpired(), poolWait());
        }
        return this;
    }

    private void send(long id, Pending pending) {
        pending.sentNanos = System.nanoTime();
        pool.tell(pending.request.readdressed(id, replies));
    }

    private Behavior<Command> onPoolReply(PoolReply message) {
        InferencePool.Reply reply = message.reply();
        Pending pending = inFlight.remove(reply.requestId());
        if (pending == null) {
            return this; // already answered by an earlier pool or try, or failed after the wait
        }
        InferencePool.Request request = pending.request;
        long id = request.requestId();
        InferencePool.Reply answer;
        if (reply instanceof InferencePool.Scored scored) {
            answer = new InferencePool.Scored(id, scored.scores());
        } else if (reply instanceof InferencePool.GradientComputed computed) {
            answer = new InferencePool.GradientComputed(id, computed.gradient());
        } else if (reply instanceof InferencePool.KernelsComputed computed) {
            answer = new InferencePool.KernelsComputed(id, computed.kernels());
        } else if (reply instanceof InferencePool.Busy) {
            answer = new InferencePool.Busy(id);
        } else {
            answer = new InferencePool.Failed(id, ((InferencePool.Failed) reply).reason());
        }
        request.replyTo().tell(answer);
        return this;
    }

    private Behavior<Command> onPoolsChanged(PoolsChanged changed) {
        // The reachable pools, in a fixed order so every member picks the same one when there are several.
        ActorRef<InferencePool.Command> next = changed.listing().getServiceInstances(POOL_KEY).stream()
                .min(Comparator.comparing(ref -> ref.path().toString())).orElse(null);
        if (next == null) {
            if (pool != null) {
                getContext().getLog().warn("the inference pool {} is gone; waiting up to {} s for another",
                        pool.path(), maxWait.toSeconds());
                pool = null;
                timers.startSingleTimer("wait", new WaitExpired(), poolWait());
            }
            return this;
        }
        if (!next.equals(pool)) {
            pool = next;
            lastPool = next.path().address().toString();
            timers.cancel("wait");
            getContext().getLog().info("using the inference pool at {}; {} requests (re)sent", next.path(),
                    inFlight.size());
            inFlight.forEach(this::send);
        }
        return this;
    }

    /** How long requests wait for a pool: the first wait until one has been seen, then {@code maxWait}. */
    private Duration poolWait() {
        return lastPool == null ? firstWait : maxWait;
    }

    private Behavior<Command> onWaitExpired() {
        if (pool != null) {
            return this;
        }
        Duration wait = poolWait();
        String waited = wait.toMillis() < 1000 ? wait.toMillis() + " ms" : wait.toSeconds() + " s";
        String reason = "no inference pool reachable for " + waited + " (last seen: "
                + (lastPool == null ? "none yet" : lastPool) + ")";
        getContext().getLog().error(reason);
        inFlight.values().forEach(pending -> fail(pending, reason));
        inFlight.clear();
        onGone.accept(reason);
        return this;
    }

    private Behavior<Command> onCheckUnanswered() {
        if (pool == null) {
            return this; // the wait for a pool has its own bound
        }
        long now = System.nanoTime();
        var entries = inFlight.entrySet().iterator();
        while (entries.hasNext()) {
            var entry = entries.next();
            Pending pending = entry.getValue();
            if (now - pending.sentNanos < UNANSWERED_AFTER.toNanos()) {
                continue;
            }
            if (pending.resends == MAX_RESENDS) {
                fail(pending, "the inference pool at " + lastPool + " did not answer in " + (MAX_RESENDS + 1)
                        + " tries of " + UNANSWERED_AFTER.toMinutes() + " min");
                entries.remove();
            } else {
                pending.resends++;
                getContext().getLog().warn("no answer from the inference pool for {} min; request sent again",
                        UNANSWERED_AFTER.toMinutes());
                send(entry.getKey(), pending);
            }
        }
        return this;
    }

    private static void fail(Pending pending, String reason) {
        pending.request.replyTo().tell(new InferencePool.Failed(pending.request.requestId(), reason));
    }
}
