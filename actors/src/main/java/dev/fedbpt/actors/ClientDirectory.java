package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.Payload;
import java.util.List;

/**
 * Where the server's round messages go: client actors of this JVM, or sharded client entities spread over a cluster
 * ({@code cluster.ShardedClients}). The server neither knows nor cares which.
 */
public interface ClientDirectory {
    void train(int clientId, ClientActor.Train train);

    /**
     * Before a round's first {@link #train}: the downlink every client of round {@code round} starts from, and the
     * method's update from which a holder of the previous round's downlink rebuilds it (null: none). Clients in this
     * JVM share the instance and need neither.
     */
    default void publish(int round, Downlink downlink, Payload downlinkUpdate) {}

    /**
     * Whether clients confirm each round message with {@link ServerActor.ClientStarted}. Where they do (a cluster,
     * where a message can die with a member), the server sends unconfirmed ones again until they are confirmed.
     */
    default boolean confirmsStarts() {
        return false;
    }

    /** One client actor per id, all in this JVM: the single-JVM default. */
    static ClientDirectory local(List<ActorRef<ClientActor.Command>> clients) {
        List<ActorRef<ClientActor.Command>> all = List.copyOf(clients);
        return (clientId, train) -> all.get(clientId).tell(train);
    }
}
