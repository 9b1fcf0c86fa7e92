package dev.fedbpt.actors.cluster;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.cluster.sharding.typed.javadsl.ClusterSharding;
import akka.cluster.sharding.typed.javadsl.EntityTypeKey;
import dev.fedbpt.actors.ClientActor;
import dev.fedbpt.actors.ServerActor;
import dev.fedbpt.actors.WireMessage;

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
    public record TrainRound(int round, int attempt, ActorRef<ServerActor.Command> replyTo,
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
            passivate(); // the round closed before this client started
            return this;
        }
        running = train;
        search.tell(new ClientActor.Train(train.round(), train.attempt(), arrived.state().global(), relay));
        return this;
    }

    private Behavior<Command> onRelay(Relay relayed) {
        if (running == null) {
            return this;
        }
        running.replyTo().tell(relayed.answer());
        if (waitingForState == null) {
            passivate();
        }
        running = null;
        return this;
    }

    private static boolean isCurrent(TrainRound current, TrainRound train) {
        return current != null && current.round() == train.round() && current.attempt() == train.attempt();
    }

    private void passivate() {
        shard.tell(new ClusterSharding.Passivate<>(getContext().getSelf()));
    }
}
