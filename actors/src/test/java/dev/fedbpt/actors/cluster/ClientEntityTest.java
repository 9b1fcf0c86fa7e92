package dev.fedbpt.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.cluster.sharding.typed.javadsl.ClusterSharding;
import dev.fedbpt.actors.ClientActor;
import dev.fedbpt.actors.FaultInjector;
import dev.fedbpt.actors.InferencePool;
import dev.fedbpt.actors.ServerActor;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.ClientMemory;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.LocalRounds;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.RoundNumbers;
import dev.fedbpt.engine.method.testing.AveragingMethod;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A client entity on its own, run with the engine's fixture method rather than FedBPT: probes stand for its member's
 * {@link RoundStates}, its shard, the inference pool and the server. It tells the server where it runs, fetches the
 * round's state from its member, runs its search from it, relays the search's messages to the server and passivates
 * once the round in progress is answered; a repeated round message does not start the round again, a closed round is
 * not run, and a stop with a round unfinished is reported so the server sends the round again.
 */
class ClientEntityTest {
    private static final ActorTestKit KIT = ActorTestKit.create();
    private static final int CLIENT = 3;
    private static final long SEED = 7L;
    private static final String NODE = "akka://fedbpt@10.0.0.7:2552";
    private static final LocalData DATA = new LocalData(List.of(new int[] {0, 5}, new int[] {0, 6, 7, 1}),
            new int[] {0, 1}, 2);
    private static final Vocabulary VOCAB = new Vocabulary(10, new int[] {0, 1});
    private static final AveragingMethod METHOD = new AveragingMethod();
    private static final Duration QUIET = Duration.ofMillis(200);

    @AfterAll
    static void stop() {
        KIT.shutdownTestKit();
    }

    /** One entity and the probes around it. */
    private static final class Entity {
        final TestProbe<RoundStates.Command> localStates = KIT.createTestProbe();
        final TestProbe<RoundStates.Command> serverStates = KIT.createTestProbe(); // the server member's, never asked here
        final TestProbe<ClusterSharding.ShardCommand> shard = KIT.createTestProbe();
        final TestProbe<InferencePool.Request> pool = KIT.createTestProbe();
        final TestProbe<ServerActor.Command> server = KIT.createTestProbe();
        final ActorRef<ClientEntity.Command> ref;

        Entity(FaultInjector faults) {
            ref = KIT.spawn(ClientEntity.create(CLIENT, new ClientActor.Setup(CLIENT, DATA, VOCAB, METHOD, SEED,
                    pool.getRef(), faults), NODE, localStates.getRef(), shard.getRef()));
        }

        Entity() {
            this(FaultInjector.NONE);
        }

        /** Sends round {@code round}'s message and checks the entity says where it runs and asks for the state. */
        RoundStates.Get train(int round, int attempt, ClientMemory memory) {
            ref.tell(new ClientEntity.TrainRound(round, attempt, memory, server.getRef(), serverStates.getRef()));
            server.expectMessage(new ServerActor.ClientStarted(round, attempt, CLIENT, NODE));
            RoundStates.Get get = localStates.expectMessageClass(RoundStates.Get.class);
            assertEquals(round, get.round());
            assertEquals(serverStates.getRef(), get.source(), "the member fetches from the server's member if need be");
            return get;
        }

        /** The pool's request for the search's one step, checked to start from x. */
        InferencePool.ScoreRows scoreRequest(double x) {
            InferencePool.ScoreRows score = pool.expectMessageClass(InferencePool.ScoreRows.class);
            assertArrayEquals(new double[] {x}, ((Prompt.Continuous) score.prompt()).z(), "the search starts from x");
            assertEquals(DATA.tokenIds(), score.rows());
            return score;
        }

        void expectPassivated() {
            shard.expectMessage(new ClusterSharding.Passivate<>(ref));
        }
    }

    private static void answer(InferencePool.ScoreRows score) {
        score.replyTo().tell(new InferencePool.Scored(score.requestId(),
                AveragingMethod.SCORER.score(score.prompt(), score.rows())));
    }

    /** What the server should get for round {@code round}, attempt {@code attempt}, started from x. */
    private static ServerActor.ClientReport expectedReport(int round, int attempt, double x, ClientMemory memory) {
        ClientProcedure.Finished direct = LocalRounds.runClient(METHOD.client(new AveragingMethod.Value(x),
                new ClientTask(CLIENT, RoundNumbers.index(round), DATA, VOCAB, SEED, memory)), AveragingMethod.SCORER);
        return new ServerActor.ClientReport(direct.upload(), direct.memory(), attempt, DATA.size(), 0);
    }

    @Test
    void runsTheClientsStepFromItsMembersStateRepliesAndPassivates() {
        Entity entity = new Entity();
        AveragingMethod.Visits memory = new AveragingMethod.Visits(2);
        RoundStates.Get get = entity.train(3, 1, memory);
        entity.pool.expectNoMessage(QUIET); // nothing to search from before the state is here

        get.replyTo().tell(new RoundStates.Global(3, new AveragingMethod.Value(1.5)));
        answer(entity.scoreRequest(1.5));
        entity.server.expectMessage(new ServerActor.ClientProgressed(3, 1, CLIENT));
        ServerActor.ClientReport report = entity.server.expectMessageClass(ServerActor.ClientReport.class);
        assertEquals(expectedReport(3, 1, 1.5, memory), report, "the upload the fixture's procedure gives directly");
        AveragingMethod.Estimate estimate = (AveragingMethod.Estimate) report.upload();
        assertEquals(2, estimate.round(), "round 3 as users count is engine round 2");
        assertEquals(2, estimate.visitsBefore(), "the round message's memory reaches the search");
        assertEquals(new AveragingMethod.Visits(3), report.memory());
        entity.expectPassivated();

        KIT.stop(entity.ref);
        entity.server.expectNoMessage(QUIET); // answered: nothing to send again
    }

    @Test
    void aRepeatedRoundMessageIsAcknowledgedButNotRunAgain() {
        Entity entity = new Entity();
        RoundStates.Get get = entity.train(2, 1, null);
        entity.ref.tell(new ClientEntity.TrainRound(2, 1, null, entity.server.getRef(), entity.serverStates.getRef()));
        entity.server.expectMessage(new ServerActor.ClientStarted(2, 1, CLIENT, NODE));
        entity.localStates.expectNoMessage(QUIET); // waiting for the state already

        get.replyTo().tell(new RoundStates.Global(2, new AveragingMethod.Value(0.5)));
        InferencePool.ScoreRows score = entity.scoreRequest(0.5);
        entity.ref.tell(new ClientEntity.TrainRound(2, 1, null, entity.server.getRef(), entity.serverStates.getRef()));
        entity.server.expectMessage(new ServerActor.ClientStarted(2, 1, CLIENT, NODE));
        entity.localStates.expectNoMessage(QUIET); // running already
        entity.pool.expectNoMessage(QUIET);

        answer(score);
        entity.server.expectMessage(new ServerActor.ClientProgressed(2, 1, CLIENT));
        assertEquals(expectedReport(2, 1, 0.5, null), entity.server.expectMessageClass(ServerActor.ClientReport.class));
        entity.expectPassivated();
        entity.server.expectNoMessage(QUIET); // one answer for the round, however often it was sent
    }

    @Test
    void aRoundClosedBeforeTheClientStartedIsNotRun() {
        Entity entity = new Entity();
        RoundStates.Get get = entity.train(4, 1, null);
        get.replyTo().tell(new RoundStates.Global(4, null)); // the member's answer for a round no longer open
        entity.expectPassivated();
        entity.pool.expectNoMessage(QUIET);

        KIT.stop(entity.ref);
        entity.server.expectNoMessage(QUIET); // nothing unfinished to report
    }

    @Test
    void aStateOfAnotherRoundIsIgnored() {
        Entity entity = new Entity();
        RoundStates.Get get = entity.train(5, 1, null);
        get.replyTo().tell(new RoundStates.Global(4, new AveragingMethod.Value(9.0)));
        get.replyTo().tell(new RoundStates.Global(4, null));
        entity.pool.expectNoMessage(QUIET);
        entity.shard.expectNoMessage(Duration.ZERO);

        get.replyTo().tell(new RoundStates.Global(5, new AveragingMethod.Value(2.0)));
        answer(entity.scoreRequest(2.0));
        entity.server.expectMessage(new ServerActor.ClientProgressed(5, 1, CLIENT));
        assertEquals(expectedReport(5, 1, 2.0, null), entity.server.expectMessageClass(ServerActor.ClientReport.class));
        entity.expectPassivated();
    }

    @Test
    void aNewAttemptOfTheRoundReplacesTheOneInProgress() {
        Entity entity = new Entity();
        RoundStates.Get first = entity.train(3, 1, null);
        first.replyTo().tell(new RoundStates.Global(3, new AveragingMethod.Value(1.0)));
        InferencePool.ScoreRows abandoned = entity.scoreRequest(1.0);

        RoundStates.Get second = entity.train(3, 2, null);
        second.replyTo().tell(new RoundStates.Global(3, new AveragingMethod.Value(1.0)));
        InferencePool.ScoreRows retried = entity.scoreRequest(1.0);
        answer(abandoned); // the search dropped it when attempt 2 started
        answer(retried);
        entity.server.expectMessage(new ServerActor.ClientProgressed(3, 2, CLIENT));
        assertEquals(expectedReport(3, 2, 1.0, null), entity.server.expectMessageClass(ServerActor.ClientReport.class));
        entity.expectPassivated();
        entity.server.expectNoMessage(QUIET);
    }

    @Test
    void anOlderRoundsLateAnswerIsRelayedWithoutEndingTheRoundInProgress() {
        // Round 1's answer is held back (an injected delay) until round 2 runs.
        FaultInjector delayFirstRound = new FaultInjector() {
            @Override
            public ClientFault clientFault(int round, int attempt, int clientId) {
                return round == 1 ? new ClientFault(false, -1, Duration.ofMillis(500)) : ClientFault.NONE;
            }
        };
        Entity entity = new Entity(delayFirstRound);
        entity.train(1, 1, null).replyTo().tell(new RoundStates.Global(1, new AveragingMethod.Value(1.0)));
        answer(entity.scoreRequest(1.0));
        entity.server.expectMessage(new ServerActor.ClientProgressed(1, 1, CLIENT));

        entity.train(2, 1, null).replyTo().tell(new RoundStates.Global(2, new AveragingMethod.Value(2.0)));
        InferencePool.ScoreRows second = entity.scoreRequest(2.0);
        ServerActor.ClientReport late = entity.server.expectMessageClass(ServerActor.ClientReport.class,
                Duration.ofSeconds(5));
        assertEquals(expectedReport(1, 1, 1.0, null), late, "relayed: the server files it as late");
        entity.shard.expectNoMessage(QUIET); // round 2 is still running

        answer(second);
        entity.server.expectMessage(new ServerActor.ClientProgressed(2, 1, CLIENT));
        assertEquals(expectedReport(2, 1, 2.0, null), entity.server.expectMessageClass(ServerActor.ClientReport.class));
        entity.expectPassivated();
    }

    @Test
    void stoppedWithARoundUnfinishedItTellsTheServerToSendItAgain() {
        Entity waiting = new Entity();
        waiting.train(6, 1, null); // stopped before the state arrived
        KIT.stop(waiting.ref);
        waiting.server.expectMessage(new ServerActor.ClientStopped(6, 1, CLIENT));

        Entity running = new Entity();
        running.train(6, 2, null).replyTo().tell(new RoundStates.Global(6, new AveragingMethod.Value(1.0)));
        running.scoreRequest(1.0); // stopped while its search waits for scores
        KIT.stop(running.ref);
        running.server.expectMessage(new ServerActor.ClientStopped(6, 2, CLIENT));
        running.shard.expectNoMessage(Duration.ZERO);
    }
}
