package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.fedbpt.ClientSearchConfig;
import dev.fedbpt.engine.fedbpt.FedBptMethod;
import dev.fedbpt.engine.fedbpt.FedBptStrategy;
import dev.fedbpt.engine.fedbpt.GlobalState;
import dev.fedbpt.engine.fedbpt.LocalResult;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.LocalRounds;
import dev.fedbpt.engine.method.Prompt;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The client actor on its own, with probes for the inference pool and the server: it turns each of its procedure's
 * requests into one Score per prompt, feeds the answers back in whatever order they come, and reports what the
 * procedure would upload if driven directly; a failed batch becomes ClientFailed for that round.
 */
class ClientActorTest {
    private static final ActorTestKit KIT = ActorTestKit.create();
    private static final int D = 4;
    private static final LocalData DATA = new LocalData(List.of(new int[] {0, 5, 6, 1}, new int[] {0, 7, 1}),
            new int[] {0, 1}, 2);
    private static final Vocabulary VOCAB = new Vocabulary(10, new int[] {0, 1});
    private static final FedBptMethod METHOD = new FedBptMethod("fedbpt", new FedBptStrategy(5, 2),
            new ClientSearchConfig(2, 5, 0.0, false), D, 1.0, true, 0L);
    private static final GlobalState GLOBAL = new GlobalState(2, CmaesState.initial(new double[D], 1.0));

    @AfterAll
    static void stop() {
        KIT.shutdownTestKit();
    }

    /** Class scores that depend on the prompt and the row only. */
    private static float[][] scores(Prompt prompt, List<int[]> rows) {
        double[] z = ((Prompt.Continuous) prompt).z();
        float[][] out = new float[rows.size()][2];
        for (int r = 0; r < rows.size(); r++) {
            out[r][0] = (float) (z[0] + 0.1 * rows.get(r).length);
            out[r][1] = (float) z[1];
        }
        return out;
    }

    private static ActorRef<ClientActor.Command> client(TestProbe<InferencePool.Request> pool) {
        return KIT.spawn(ClientActor.create(new ClientActor.Setup(3, DATA, VOCAB, METHOD, 7L, pool.getRef(),
                FaultInjector.NONE)));
    }

    @Test
    void answersInReverseOrderStillGiveTheUploadTheProcedureGivesDirectly() {
        TestProbe<InferencePool.Request> pool = KIT.createTestProbe();
        TestProbe<ServerActor.Command> server = KIT.createTestProbe();
        ActorRef<ClientActor.Command> client = client(pool);
        client.tell(new ClientActor.Train(3, 1, GLOBAL, null, server.getRef()));
        long forwardRows = 0;
        for (int request = 0; request < 3; request++) { // two iterations of 5 candidates, then the mean
            int expected = request < 2 ? 5 : 1;
            List<InferencePool.Request> asked = pool.receiveSeveralMessages(expected, Duration.ofSeconds(5));
            for (int k = asked.size() - 1; k >= 0; k--) {
                InferencePool.ScoreRows score = (InferencePool.ScoreRows) asked.get(k);
                score.replyTo().tell(new InferencePool.Scored(score.requestId(), scores(score.prompt(), score.rows())));
                forwardRows += score.rows().size();
            }
        }
        List<ServerActor.Command> told = server.receiveSeveralMessages(4, Duration.ofSeconds(5));
        assertEquals(List.of(new ServerActor.ClientProgressed(3, 1, 3), new ServerActor.ClientProgressed(3, 1, 3),
                new ServerActor.ClientProgressed(3, 1, 3)), told.subList(0, 3),
                "each answered step tells the server the client is working (its deadline counts silence)");
        ServerActor.ClientReport report = (ServerActor.ClientReport) told.get(3);
        LocalResult direct = (LocalResult) LocalRounds.runClient(METHOD.client(GLOBAL,
                new ClientTask(3, 2, DATA, VOCAB, 7L, null)), ClientActorTest::scores).upload();
        LocalResult viaActor = (LocalResult) report.upload();
        assertArrayEquals(direct.mean(), viaActor.mean());
        assertArrayEquals(direct.sigmas(), viaActor.sigmas());
        assertEquals(direct.loss(), viaActor.loss());
        assertEquals(2, viaActor.round(), "round 3 as users count is engine round 2");
        assertEquals(1, report.attempt());
        assertEquals(forwardRows, report.forwardRows());
        assertNull(report.memory());
        pool.expectNoMessage(Duration.ofMillis(100));
    }

    @Test
    void aFailedBatchFailsTheRoundAndTheClientTakesTheNextOne() {
        TestProbe<InferencePool.Request> pool = KIT.createTestProbe();
        TestProbe<ServerActor.Command> server = KIT.createTestProbe();
        ActorRef<ClientActor.Command> client = client(pool);
        client.tell(new ClientActor.Train(3, 1, GLOBAL, null, server.getRef()));
        InferencePool.Request first = pool.receiveSeveralMessages(5, Duration.ofSeconds(5)).get(0);
        first.replyTo().tell(new InferencePool.Failed(first.requestId(), "worker gone"));
        ServerActor.ClientFailed failed = server.expectMessageClass(ServerActor.ClientFailed.class);
        assertEquals(3, failed.round());
        assertEquals(3, failed.clientId());
        assertTrue(failed.reason().contains("worker gone"), failed.reason());

        client.tell(new ClientActor.Train(3, 2, GLOBAL, null, server.getRef()));
        assertEquals(5, pool.receiveSeveralMessages(5, Duration.ofSeconds(5)).size(), "attempt 2 starts afresh");
    }
}
