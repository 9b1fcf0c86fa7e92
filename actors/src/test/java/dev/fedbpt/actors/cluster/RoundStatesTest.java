package dev.fedbpt.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.actors.AkkaDefaults;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.fedbpt.GlobalState;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** A member's copy of the round's state: fetched once from the server's member, shared, stale rounds answered null. */
class RoundStatesTest {
    private static final ActorTestKit KIT = ActorTestKit.create(AkkaDefaults.over(ConfigFactory.empty()));

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    @Test
    void clientsOfAMemberShareOneFetchOfTheRoundsState() {
        GlobalState round3 = new GlobalState(2, CmaesState.initial(new double[4], 1.0));
        ActorRef<RoundStates.Command> server = KIT.spawn(RoundStates.create());
        TestProbe<RoundStates.Command> wire = KIT.createTestProbe(); // stands between the members, counting fetches
        ActorRef<RoundStates.Command> member = KIT.spawn(RoundStates.create());
        server.tell(new RoundStates.Publish(3, round3));

        TestProbe<RoundStates.Global> clientA = KIT.createTestProbe();
        TestProbe<RoundStates.Global> clientB = KIT.createTestProbe();
        member.tell(new RoundStates.Get(3, wire.getRef(), clientA.getRef()));
        member.tell(new RoundStates.Get(3, wire.getRef(), clientB.getRef()));
        RoundStates.Fetch fetch = wire.expectMessageClass(RoundStates.Fetch.class);
        wire.expectNoMessage(Duration.ofMillis(200)); // the second client waits for the same fetch
        server.tell(fetch);

        assertSame(round3, clientA.expectMessageClass(RoundStates.Global.class).global());
        assertSame(round3, clientB.expectMessageClass(RoundStates.Global.class).global(), "one shared instance");
        TestProbe<RoundStates.Global> later = KIT.createTestProbe();
        member.tell(new RoundStates.Get(3, wire.getRef(), later.getRef()));
        assertSame(round3, later.expectMessageClass(RoundStates.Global.class).global(), "kept for the round");
        wire.expectNoMessage(Duration.ofMillis(100));

        TestProbe<RoundStates.Global> stale = KIT.createTestProbe();
        member.tell(new RoundStates.Get(2, wire.getRef(), stale.getRef()));
        RoundStates.Global over = stale.expectMessageClass(RoundStates.Global.class);
        assertEquals(2, over.round());
        assertNull(over.global(), "a round that is over: nothing to start from");
    }

    @Test
    void theServersMemberAnswersOnlyForTheOpenRound() {
        ActorRef<RoundStates.Command> server = KIT.spawn(RoundStates.create());
        server.tell(new RoundStates.Publish(5, new GlobalState(4, CmaesState.initial(new double[2], 1.0))));
        TestProbe<RoundStates.Command> member = KIT.createTestProbe();
        server.tell(new RoundStates.Fetch(4, member.getRef()));
        assertNull(((RoundStates.Global) member.receiveMessage()).global());
        server.tell(new RoundStates.Fetch(5, member.getRef()));
        assertEquals(4, ((GlobalState) ((RoundStates.Global) member.receiveMessage()).global()).round());
    }
}
