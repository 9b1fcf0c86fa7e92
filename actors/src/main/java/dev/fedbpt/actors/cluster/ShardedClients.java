package dev.fedbpt.actors.cluster;

import akka.actor.typed.ActorRef;
import akka.cluster.sharding.typed.javadsl.ClusterSharding;
import dev.fedbpt.actors.ClientActor;
import dev.fedbpt.actors.ClientDirectory;
import dev.fedbpt.engine.fedbpt.GlobalState;

/**
 * The server's side of sharded clients: publishes the round's global state to its member's {@link RoundStates}
 * once, then sends each sampled client a small round message through sharding, which starts the entity wherever
 * its shard lives.
 */
final class ShardedClients implements ClientDirectory {
    private final ClusterSharding sharding;
    private final ActorRef<RoundStates.Command> states;
    private GlobalState published;

    ShardedClients(ClusterSharding sharding, ActorRef<RoundStates.Command> states) {
        this.sharding = sharding;
        this.states = states;
    }

    @Override
    public boolean confirmsStarts() {
        return true; // ClientEntity answers every round message with ServerActor.ClientStarted
    }

    @Override
    public void train(int clientId, ClientActor.Train train) {
        if (train.global() != published) { // every client of a round gets the same instance
            states.tell(new RoundStates.Publish(train.round(), train.global()));
            published = train.global();
        }
        sharding.entityRefFor(ClientEntity.TYPE_KEY, Integer.toString(clientId))
                .tell(new ClientEntity.TrainRound(train.round(), train.attempt(), train.replyTo(), states));
    }
}
