package dev.fedbpt.actors.cluster;

import akka.actor.Address;
import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.cluster.ClusterEvent;
import akka.cluster.MemberStatus;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Join;
import akka.cluster.typed.Leave;
import dev.fedbpt.actors.ServerActor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The watcher on the server's member: a removed member with the clients role becomes {@link ServerActor.NodeLost}
 * for its address; members without that role are not the server's concern.
 */
@Timeout(90)
class MembershipWatcherTest {
    private static final Duration FORM_WITHIN = Duration.ofSeconds(30);

    private final List<ActorTestKit> kits = new ArrayList<>();

    @AfterEach
    void stop() {
        kits.forEach(ActorTestKit::shutdownTestKit);
    }

    private ActorTestKit kit(String... roles) {
        ActorTestKit kit = TestMembers.clusterKit(roles);
        kits.add(kit);
        return kit;
    }

    @Test
    void aRemovedClientsMemberIsLostToTheServerAndOtherMembersAreNot() {
        ActorTestKit kit = kit(NodeSettings.Role.SERVER.id());
        TestProbe<ServerActor.Command> server = kit.createTestProbe();
        ActorRef<ClusterEvent.MemberRemoved> watcher = kit.spawn(MembershipWatcher.create(server.getRef()));
        Address inference = TestMembers.address("10.0.0.2");
        Address otherServer = TestMembers.address("10.0.0.3");
        Address clients = TestMembers.address("10.0.0.4");
        Address both = TestMembers.address("10.0.0.5");

        // Fed in order, so a message for the members without the clients role would come first.
        watcher.tell(TestMembers.removed(inference, NodeSettings.Role.INFERENCE.id()));
        watcher.tell(TestMembers.removed(otherServer, NodeSettings.Role.SERVER.id()));
        watcher.tell(TestMembers.removed(clients, NodeSettings.Role.CLIENTS.id()));
        watcher.tell(TestMembers.removed(both, NodeSettings.Role.CLIENTS.id(), NodeSettings.Role.INFERENCE.id()));
        server.expectMessage(new ServerActor.NodeLost("akka://fedbpt@10.0.0.4:2552"));
        server.expectMessage(new ServerActor.NodeLost(both.toString()));
        server.expectNoMessage(Duration.ofMillis(300));
    }

    @Test
    void followsTheClusterItselfAClientsMemberThatLeavesIsLost() {
        ActorTestKit serverMember = kit(NodeSettings.Role.SERVER.id());
        ActorTestKit clientsMember = kit(NodeSettings.Role.CLIENTS.id());
        Cluster serverCluster = Cluster.get(serverMember.system());
        Address serverAddress = serverCluster.selfMember().address();
        Address clientsAddress = Cluster.get(clientsMember.system()).selfMember().address();
        serverCluster.manager().tell(Join.create(serverAddress));
        TestProbe<ServerActor.Command> server = serverMember.createTestProbe();
        serverMember.spawn(MembershipWatcher.create(server.getRef()));

        Cluster.get(clientsMember.system()).manager().tell(Join.create(serverAddress));
        server.awaitAssert(FORM_WITHIN, Duration.ofMillis(200), () -> {
            boolean up = StreamSupport.stream(serverCluster.state().getMembers().spliterator(), false)
                    .anyMatch(member -> member.address().equals(clientsAddress)
                            && member.status() == MemberStatus.up());
            if (!up) {
                throw new AssertionError("the clients member is not up yet: " + serverCluster.state().getMembers());
            }
            return null;
        });
        server.expectNoMessage(Duration.ZERO); // joining is no loss

        Cluster.get(clientsMember.system()).manager().tell(Leave.create(clientsAddress));
        server.expectMessage(FORM_WITHIN, new ServerActor.NodeLost(clientsAddress.toString()));
    }
}
