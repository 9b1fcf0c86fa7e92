package dev.fedbpt.actors.cluster;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PostStop;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.cluster.sharding.typed.javadsl.ClusterSharding;
import akka.cluster.sharding.typed.javadsl.EntityTypeKey;
import dev.fedbpt.actors.ClientActor;
import dev.fedbpt.actors.ServerActor;
import dev.fedbpt.actors.WireMessage;
import dev.fedbpt.engine.method.ClientMemory;
import dev.fedbpt.engine.method.RoundNumbers;

/**
 * A client as a sharded entity: started by its first round message on whichever clients member holds its shard,
 * stopped (passivated) as soon as its answer is on its way, so only the sampled clients of the round in progress
 * are alive. It holds nothing between rounds: its data is rebuilt from the experiment seed and its id, and the
 * round's starting point is fetched from the member's {@link RoundStates}. The search itself is the single-JVM
 * {@link ClientActor}, running as a child.
 */
public final class ClientEntity extends AbstractBehavior<ClientEntity.Command> {

    public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "client");

    public sealed interface Command {}

    /** Run round {@code round}, attempt {@code attempt}; {@code states} is the server member's {@link RoundStates}. */
    /** {@code memory}: what this client kept from its last round (null: nothing). */
    public record TrainRound(int round, int attempt, ClientMemory memory, ActorRef<ServerActor.Command> replyTo,
                             ActorRef<RoundStates.Command> states) implements Command, WireMessage {}

    private record StateArrived(RoundStates.Global state) implements Command {}

    /** The search's answer on its way to the server. */
    private record Relay(ServerActor.Command answer) implements Command {}

    private final int clientId;
    private final String node;
    private final ActorRef<RoundStates.Command> localStates;
    private final ActorRef<ClusterSharding.ShardCommand> shard;
    private final ActorRef<ClientActor.Command> search;
    private final ActorRef<RoundStates.Global> stateReplies;
    private final ActorRef<ServerActor.Command> relay;
    private TrainRound waitingForState;
    private TrainRound running;

    public static Behavior<Command> create(int clientId, ClientActor.Setup setup, String node,
                                           ActorRef<RoundStates.Command> localStates,
                                           ActorRef<ClusterSharding.ShardCommand> shard) {
        return Behaviors.setup(context -> new ClientEntity(context, clientId, setup, node, localStates, shard));
    }

    private ClientEntity(ActorContext<Command> context, int clientId, ClientActor.Setup setup, String node,
                         ActorRef<RoundStates.Command> localStates, ActorRef<ClusterSharding.ShardCommand> shard) {
        super(context);
        this.clientId = clientId;
        this.node = node;
        this.localStates = localStates;
        this.shard = shard;
        this.search = context.spawn(ClientActor.create(setup), "search");
        this.stateReplies = context.messageAdapter(RoundStates.Global.class, StateArrived::new);
        this.relay = context.messageAdapter(ServerActor.Command.class, Relay::new);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(TrainRound.class, this::onTrainRound)
                .onMessage(StateArrived.class, this::onStateArrived)
                .onMessage(Relay.class, this::onRelay)
                .onSignal(PostStop.class, signal -> onPostStop())
                .build();
    }

    private Behavior<Command> onTrainRound(TrainRound train) {
        // Tell the server where this client runs, so it can drop it at once if this member is lost.
        train.replyTo().tell(new ServerActor.ClientStarted(train.round(), train.attempt(), clientId, node));
        if (isCurrent(waitingForState, train) || isCurrent(running, train)) {
            return this; // sent again after a member was lost; this client is on it already
        }
        waitingForState = train;
        localStates.tell(new RoundStates.Get(train.round(), train.states(), stateReplies));
        return this;
    }

    private Behavior<Command> onStateArrived(StateArrived arrived) {
        TrainRound train = waitingForState;
        if (train == null || train.round() != arrived.state().round()) {
            return this;
        }
        waitingForState = null;
        if (arrived.state().global() == null) {
            if (running == null) {
                passivate(); // the round closed before this client started
            }
            return this;
        }
        running = train;
        search.tell(new ClientActor.Train(train.round(), train.attempt(), arrived.state().global(), train.memory(),
                relay));
        return this;
    }

    /**
     * Every answer goes to the server, which files one for a closed round or attempt as late; only the answer to
     * the round in progress ends it (an injected delay can hold an older answer back until a newer round runs).
     */
    private Behavior<Command> onRelay(Relay relayed) {
        ServerActor.Command answer = relayed.answer();
        TrainRound current = unfinished();
        if (current == null) {
            return this;
        }
        current.replyTo().tell(answer);
        if (running != null && answers(answer, running)) {
            running = null;
            if (waitingForState == null) {
                passivate();
            }
        }
        return this;
    }

    /**
     * Stopped with a round unfinished (its shard moved to another member, or a round message arrived just before
     * the stop of a passivation): the server sends the round message again, and it reaches the new incarnation.
     */
    private Behavior<Command> onPostStop() {
        TrainRound unfinished = unfinished();
        if (unfinished != null) {
            unfinished.replyTo().tell(new ServerActor.ClientStopped(unfinished.round(), unfinished.attempt(),
                    clientId));
        }
        return this;
    }

    /** The round this client has been given and not yet answered: running, or waiting for its state. */
    private TrainRound unfinished() {
        return running != null ? running : waitingForState;
    }

    private static boolean answers(ServerActor.Command answer, TrainRound train) {
        if (answer instanceof ServerActor.ClientReport report) {
            return RoundNumbers.number(report.upload().round()) == train.round() && report.attempt() == train.attempt();
        }
        return answer instanceof ServerActor.ClientFailed failed && failed.round() == train.round()
                && failed.attempt() == train.attempt();
    }

    private static boolean isCurrent(TrainRound current, TrainRound train) {
        return current != null && current.round() == train.round() && current.attempt() == train.attempt();
    }

    private void passivate() {
        shard.tell(new ClusterSharding.Passivate<>(getContext().getSelf()));
    }
}
