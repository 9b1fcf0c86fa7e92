package dev.fedbpt.actors.cluster;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.ClusterEvent;
import akka.cluster.Member;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Subscribe;
import dev.fedbpt.actors.ServerActor;

/** On the server's member: tells the server when a clients member becomes unreachable or leaves. */
final class MembershipWatcher {
    private MembershipWatcher() {}

    static Behavior<ClusterEvent.ClusterDomainEvent> create(ActorRef<ServerActor.Command> server) {
        return Behaviors.setup(context -> {
            Cluster cluster = Cluster.get(context.getSystem());
            cluster.subscriptions().tell(Subscribe.create(context.getSelf(), ClusterEvent.ClusterDomainEvent.class));
            return Behaviors.receive(ClusterEvent.ClusterDomainEvent.class)
                    .onMessage(ClusterEvent.UnreachableMember.class, event -> {
                        lost(server, event.member(), false);
                        return Behaviors.same();
                    })
                    .onMessage(ClusterEvent.MemberRemoved.class, event -> {
                        lost(server, event.member(), true);
                        return Behaviors.same();
                    })
                    .onAnyMessage(event -> Behaviors.same())
                    .build();
        });
    }

    private static void lost(ActorRef<ServerActor.Command> server, Member member, boolean removed) {
        if (member.hasRole(NodeSettings.Role.CLIENTS.id())) {
            server.tell(new ServerActor.NodeLost(member.address().toString(), removed));
        }
    }
}
