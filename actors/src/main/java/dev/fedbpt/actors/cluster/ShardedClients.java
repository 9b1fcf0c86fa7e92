package dev.fedbpt.actors.cluster;

import akka.actor.typed.ActorRef;
import akka.cluster.sharding.typed.javadsl.ClusterSharding;
import dev.fedbpt.actors.ClientActor;
import dev.fedbpt.actors.ClientDirectory;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.Payload;

/**
 * The server's side of sharded clients: publishes the round's downlink (and the method's update that rebuilds it
 * from the previous round's) to its member's {@link RoundStates} once, then sends each sampled client a small round
 * message through sharding, which starts the entity wherever its shard lives.
 */
final class ShardedClients implements ClientDirectory {
    private final ClusterSharding sharding;
    private final ActorRef<RoundStates.Command> states;

    ShardedClients(ClusterSharding sharding, ActorRef<RoundStates.Command> states) {
        this.sharding = sharding;
        this.states = states;
    }

    @Override
    public boolean confirmsStarts() {
        return true; // ClientEntity answers every round message with ServerActor.ClientStarted
    }

    @Override
    public void publish(int round, Downlink downlink, Payload downlinkUpdate) {
        states.tell(new RoundStates.Publish(round, downlink, downlinkUpdate));
    }

    @Override
    public void train(int clientId, ClientActor.Train train) {
        sharding.entityRefFor(ClientEntity.TYPE_KEY, Integer.toString(clientId)).tell(new ClientEntity.TrainRound(
                train.round(), train.attempt(), train.memory(), train.replyTo(), states));
    }
}
