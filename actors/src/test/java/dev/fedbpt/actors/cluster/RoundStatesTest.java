package dev.fedbpt.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.actors.AkkaDefaults;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.fedbpt.ClientSearchConfig;
import dev.fedbpt.engine.fedbpt.FedBptMethod;
import dev.fedbpt.engine.fedbpt.FedBptStrategy;
import dev.fedbpt.engine.fedbpt.GlobalState;
import dev.fedbpt.engine.fedbpt.LocalResult;
import dev.fedbpt.engine.method.RoundUpdate;
import dev.fedbpt.engine.method.Upload;
import java.util.List;
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
        server.tell(new RoundStates.Fetch(4, -1, member.getRef()));
        assertNull(((RoundStates.Global) member.receiveMessage()).global());
        server.tell(new RoundStates.Fetch(5, -1, member.getRef()));
        assertEquals(4, ((GlobalState) ((RoundStates.Global) member.receiveMessage()).global()).round());
    }

    /** FedBPT at d = 20 (where the uploads are smaller than the state): two clients' uploads of round 1. */
    private static final int D = 20;
    private static final FedBptMethod METHOD = new FedBptMethod("fedbpt", new FedBptStrategy(5, 1),
            new ClientSearchConfig(1, 5, 0.0, false), D, 1.0, true, 0L);

    private static List<Upload> roundOneUploads() {
        double[] a = new double[D];
        double[] b = new double[D];
        for (int i = 0; i < D; i++) {
            a[i] = 0.1 * Math.sin(i);
            b[i] = -0.2 * Math.cos(i);
        }
        return List.of(new LocalResult(0, 0, a, new double[] {0.9}, 0.4, 4, null),
                new LocalResult(0, 1, b, new double[] {0.8}, 0.6, 4, null));
    }

    /** A server's member with round 2 published, a member holding {@code held} as round 1's state, one client. */
    private record Round2(GlobalState second, ActorRef<RoundStates.Command> server,
                          ActorRef<RoundStates.Command> member, TestProbe<RoundStates.Command> wire,
                          TestProbe<RoundStates.Global> client) {
        static Round2 heldBy(java.util.function.UnaryOperator<GlobalState> held) {
            GlobalState first = METHOD.initialize();
            GlobalState second = METHOD.aggregate(first, roundOneUploads());
            ActorRef<RoundStates.Command> server = KIT.spawn(RoundStates.create(METHOD));
            server.tell(new RoundStates.Publish(2, second, METHOD.downlinkUpdate(second, 1, roundOneUploads())));
            ActorRef<RoundStates.Command> member = KIT.spawn(RoundStates.create(METHOD));
            member.tell(new RoundStates.Global(1, held.apply(first))); // what it fetched for round 1
            Round2 r = new Round2(second, server, member, KIT.createTestProbe(), KIT.createTestProbe());
            member.tell(new RoundStates.Get(2, r.wire.getRef(), r.client.getRef()));
            assertEquals(1, r.wire.expectMessageClass(RoundStates.Fetch.class).held());
            server.tell(new RoundStates.Fetch(2, 1, r.wire.getRef()));
            return r;
        }
    }

    @Test
    void aMemberHoldingThePreviousRoundsStateRebuildsTheNextFromTheUploads() {
        Round2 r = Round2.heldBy(first -> first);
        RoundStates.Update update = r.wire.expectMessageClass(RoundStates.Update.class);
        assertTrue(update.update().length < RoundUpdate.payloadSize(r.second));
        r.member.tell(update);
        assertEquals(r.second, r.client.expectMessageClass(RoundStates.Global.class).global(), "bit for bit");
        r.wire.expectNoMessage(Duration.ofMillis(100));
    }

    @Test
    void aMemberWhoseRebuildDiffersFetchesTheWholeState() {
        Round2 r = Round2.heldBy(first -> new GlobalState(0, first.cmaes().withSigma(0.5)));
        r.member.tell(r.wire.expectMessageClass(RoundStates.Update.class));
        RoundStates.Fetch whole = r.wire.expectMessageClass(RoundStates.Fetch.class);
        assertEquals(-1, whole.held(), "the digest did not match: the whole state is fetched");
        r.server.tell(whole); // answered to the member itself
        assertSame(r.second, r.client.expectMessageClass(RoundStates.Global.class).global());
    }
}
