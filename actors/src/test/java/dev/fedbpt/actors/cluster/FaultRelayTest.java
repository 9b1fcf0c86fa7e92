package dev.fedbpt.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.Address;
import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.ClusterEvent;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Join;
import dev.fedbpt.actors.FaultInjector;
import dev.fedbpt.actors.ServerActor;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.persistence.RoundIncidents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fault injector of a member without the server role: it decides as the member's own injector does, keeps the
 * counts there until it has seen the server's member up, then sends them, and every later fault as it is injected, to
 * the server at its fixed path on that member; it never leaves counts for its own member to drain.
 */
@Timeout(60)
class FaultRelayTest {
    private static final Duration QUIET = Duration.ofMillis(300);
    private static final ScoreRow ROW = new ScoreRow(new double[] {0.5}, new int[] {0, 4, 1}, null, null, 0);

    private final List<ActorTestKit> kits = new ArrayList<>();

    @AfterEach
    void stop() {
        kits.forEach(ActorTestKit::shutdownTestKit);
    }

    /** A member's own injector that does what the test sets, and counts it as SeededFaults does. */
    private static final class Scripted implements FaultInjector {
        private ClientFault next = ClientFault.NONE;
        private boolean crash;
        private Float corrupt;
        private long drops, crashes, delays, workerCrashes, corruptions;

        synchronized void set(ClientFault fault, boolean crashWorkers, Float corruptWith) {
            next = fault;
            crash = crashWorkers;
            corrupt = corruptWith;
        }

        @Override
        public synchronized ClientFault clientFault(int round, int attempt, int clientId) {
            if (next.drops()) drops++;
            else if (next.crashAtIteration() >= 0) crashes++;
            else if (!next.delay().isZero()) delays++;
            return next;
        }

        @Override
        public synchronized boolean workerCrashes(int worker, long batchId) {
            if (crash) workerCrashes++;
            return crash;
        }

        @Override
        public synchronized Float corruptedScore(ScoreRow row) {
            if (corrupt != null) corruptions++;
            return corrupt;
        }

        @Override
        public synchronized RoundIncidents drainCounts() {
            RoundIncidents counts = new RoundIncidents(drops, crashes, delays, workerCrashes, corruptions, 0, 0, 0);
            drops = crashes = delays = workerCrashes = corruptions = 0;
            return counts;
        }
    }

    private static final FaultInjector.ClientFault DROP = new FaultInjector.ClientFault(true, -1, Duration.ZERO);
    private static final FaultInjector.ClientFault CRASH = new FaultInjector.ClientFault(false, 2, Duration.ZERO);

    private ActorTestKit kit(String... roles) {
        ActorTestKit kit = TestMembers.clusterKit(roles);
        kits.add(kit);
        return kit;
    }

    /** A stand-in for the server, at the server's path on {@code kit}'s member, forwarding to a probe. */
    private static TestProbe<ServerActor.Command> server(ActorTestKit kit) {
        TestProbe<ServerActor.Command> probe = kit.createTestProbe();
        ActorRef<ServerActor.Command> forward = probe.getRef();
        kit.spawn(Behaviors.<ServerActor.Command>receiveMessage(message -> {
            forward.tell(message);
            return Behaviors.same();
        }), ClusterNode.SERVER_NAME);
        return probe;
    }

    private static RoundIncidents faults(long drops, long crashes, long workerCrashes, long corruptions) {
        return new RoundIncidents(drops, crashes, 0, workerCrashes, corruptions, 0, 0, 0);
    }

    @Test
    void countsWaitUntilTheServersMemberIsUpThenEveryFaultIsSentAsItIsInjected() {
        ActorTestKit kit = kit(NodeSettings.Role.CLIENTS.id());
        TestProbe<ServerActor.Command> server = server(kit);
        Scripted local = new Scripted();
        FaultRelay relay = new FaultRelay(local);

        local.set(DROP, false, null);
        assertSame(DROP, relay.clientFault(1, 1, 4), "the member's own injector decides");
        assertEquals(RoundIncidents.NONE, relay.drainCounts(), "nothing is left for this member to drain");
        server.expectNoMessage(QUIET); // no server known yet: the count waits in the local injector

        // Fed members directly (this member joins no cluster); this member's own address, where the stand-in is.
        ActorRef<ClusterEvent.MemberUp> finder = kit.spawn(relay.serverFinder());
        Address here = kit.system().address();
        finder.tell(TestMembers.up(here, NodeSettings.Role.CLIENTS.id(), NodeSettings.Role.INFERENCE.id()));
        server.expectNoMessage(QUIET); // not the server's member: the count still waits
        finder.tell(TestMembers.up(here, NodeSettings.Role.SERVER.id()));
        server.expectMessage(new ServerActor.FaultsInjected(faults(1, 0, 0, 0)));

        // From now on each fault is sent by the injecting thread, before the decision is returned.
        local.set(CRASH, false, null);
        assertSame(CRASH, relay.clientFault(2, 1, 4));
        server.expectMessage(new ServerActor.FaultsInjected(faults(0, 1, 0, 0)));
        local.set(FaultInjector.ClientFault.NONE, true, Float.NaN);
        assertTrue(relay.workerCrashes(0, 17L));
        server.expectMessage(new ServerActor.FaultsInjected(faults(0, 0, 1, 0)));
        assertTrue(Float.isNaN(relay.corruptedScore(ROW)));
        server.expectMessage(new ServerActor.FaultsInjected(faults(0, 0, 0, 1)));

        // Decisions that inject nothing send nothing.
        local.set(FaultInjector.ClientFault.NONE, false, null);
        assertSame(FaultInjector.ClientFault.NONE, relay.clientFault(3, 1, 4));
        assertFalse(relay.workerCrashes(0, 18L));
        assertNull(relay.corruptedScore(ROW));
        server.expectNoMessage(QUIET);
        assertEquals(RoundIncidents.NONE, local.drainCounts(), "everything counted went to the server");
        assertEquals(RoundIncidents.NONE, relay.drainCounts());
    }

    @Test
    void findsTheServerOnTheMemberWithTheServerRoleWhenThatMemberComesUp() {
        // A one-member cluster: the member with the server role is this one, up once it joins itself.
        ActorTestKit kit = kit(NodeSettings.Role.SERVER.id());
        TestProbe<ServerActor.Command> server = server(kit);
        Scripted local = new Scripted();
        FaultRelay relay = new FaultRelay(local);
        local.set(DROP, false, null);
        relay.clientFault(1, 1, 0);
        relay.clientFault(1, 1, 1);

        kit.spawn(relay.serverFinder());
        Cluster cluster = Cluster.get(kit.system());
        cluster.manager().tell(Join.create(cluster.selfMember().address()));
        server.expectMessage(Duration.ofSeconds(30), new ServerActor.FaultsInjected(faults(2, 0, 0, 0)));
    }
}
