package dev.fedbpt.actors.cluster;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.ClusterEvent;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Subscribe;
import dev.fedbpt.actors.ServerActor;

/**
 * On the server's member: tells the server when a clients member is removed (it left, or crashed and the split-brain
 * resolver downed it after {@code --down-after}).
 */
final class MembershipWatcher {
    private MembershipWatcher() {}

    static Behavior<ClusterEvent.MemberRemoved> create(ActorRef<ServerActor.Command> server) {
        return Behaviors.setup(context -> {
            Cluster.get(context.getSystem()).subscriptions().tell(Subscribe.create(context.getSelf(),
                    ClusterEvent.MemberRemoved.class));
            return Behaviors.receive(ClusterEvent.MemberRemoved.class)
                    .onMessage(ClusterEvent.MemberRemoved.class, event -> {
                        if (event.member().hasRole(NodeSettings.Role.CLIENTS.id())) {
                            server.tell(new ServerActor.NodeLost(event.member().address().toString()));
                        }
                        return Behaviors.same();
                    })
                    .build();
        });
    }
}
