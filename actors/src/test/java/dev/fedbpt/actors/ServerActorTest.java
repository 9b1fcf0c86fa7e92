package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.engine.fedbpt.ClientSearchConfig;
import dev.fedbpt.engine.fedbpt.FedBptMethod;
import dev.fedbpt.engine.fedbpt.FedBptStrategy;
import dev.fedbpt.engine.fedbpt.GlobalState;
import dev.fedbpt.engine.fedbpt.LocalResult;
import dev.fedbpt.persistence.Confusion;
import dev.fedbpt.persistence.OpenRound;
import dev.fedbpt.persistence.RoundSummary;
import dev.fedbpt.persistence.ServerEvent;
import dev.fedbpt.persistence.ServerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The event-sourced server on its own (Akka's EventSourcedBehaviorTestKit, an in-memory journal that also checks
 * every event and state survives serialization, the method's payloads included), with probes for the clients and the
 * inference pool: what it journals for answers that count, and that it journals nothing for those that do not.
 */
class ServerActorTest {
    private static final ActorTestKit KIT = ActorTestKit.create(EventSourcedBehaviorTestKit.config()
            .withFallback(ConfigFactory.load()));
    private static final int D = 3;
    private static final FedBptMethod METHOD = new FedBptMethod("fedbpt", new FedBptStrategy(5, 2),
            new ClientSearchConfig(2, 5, 0.0, false), D, 1.0, true, 0L);

    @AfterAll
    static void stop() {
        KIT.shutdownTestKit();
    }

    /** Records what the server tells the outside world. */
    private static final class Listener implements RunListener {
        final List<String> calls = new CopyOnWriteArrayList<>();
        volatile ServerState finished;

        @Override
        public void onRecovered(ServerState state, List<RoundSummary> finalRounds) {
            calls.add("recovered");
        }

        @Override
        public void onZeroShot(double accuracy, Map<String, Double> taskMetrics, Confusion confusion) {
            calls.add("zero-shot " + accuracy);
        }

        @Override
        public void onRoundCompleted(RoundSummary summary, ServerState state) {
            calls.add("round " + summary.round());
        }

        @Override
        public void onFinished(ServerState state) {
            finished = state;
        }

        @Override
        public void onFailed(String reason) {
            calls.add("failed " + reason);
        }

        @Override
        public void onRefused(String reason) {
            calls.add("refused " + reason);
        }
    }

    private static LocalResult upload(int engineRound, int client, double... mean) {
        return new LocalResult(engineRound, client, mean, new double[] {1.0, 0.9}, 0.5, 4, null);
    }

    /** Answers every score request with class 0 winning on rows that start with an even token, so accuracy is 1/2. */
    private static void answer(TestProbe<InferencePool.Request> pool) {
        InferencePool.ScoreRows score = pool.expectMessageClass(InferencePool.ScoreRows.class, Duration.ofSeconds(10));
        float[][] scores = new float[score.rows().size()][];
        for (int r = 0; r < scores.length; r++) {
            scores[r] = score.rows().get(r)[0] % 2 == 0 ? new float[] {1, 0} : new float[] {0, 1};
        }
        score.replyTo().tell(new InferencePool.Scored(score.requestId(), scores));
    }

    @Test
    void onlyAnswersThatCountAreJournalledAndTheRoundClosesWhenAllHaveAnswered() {
        TestProbe<ClientActor.Train> clients = KIT.createTestProbe();
        TestProbe<InferencePool.Request> pool = KIT.createTestProbe();
        Listener listener = new Listener();
        ServerActor.Settings settings = new ServerActor.Settings("hash", 11L, 1, 1, 2, 1.0, 1.0,
                Duration.ofSeconds(60), 2, 100);
        Evaluator.TestSet testSet = Evaluator.TestSet.accuracyOnly(List.of(new int[] {2, 7}, new int[] {4, 7}), new int[] {0, 1}, 2);
        EventSourcedBehaviorTestKit<ServerActor.Command, ServerEvent, ServerState> server =
                EventSourcedBehaviorTestKit.create(KIT.system(), ServerActor.create(settings, METHOD,
                        (clientId, train) -> clients.getRef().tell(train), pool.getRef(), testSet,
                        FaultInjector.NONE, listener),
                        EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyCommands(false));

        answer(pool); // the zero-shot evaluation
        List<ClientActor.Train> trains = List.of(clients.receiveMessage(Duration.ofSeconds(10)),
                clients.receiveMessage(Duration.ofSeconds(10)));
        assertEquals(1, trains.get(0).round());
        assertEquals(0, ((GlobalState) trains.get(0).downlink()).round(), "the global state before round 1");
        assertEquals(0.5, server.getState().zeroShotAccuracy());

        ServerActor.ClientReport first = new ServerActor.ClientReport(upload(0, 0, 0.1, 0.2, 0.3), null, 1, 20, 0);
        assertEquals(List.of(ServerEvent.ResultAccepted.class),
                server.runCommand(first).events().stream().map(Object::getClass).toList());
        assertTrue(server.runCommand(first).events().isEmpty(), "a duplicate is rejected, not journalled");
        assertTrue(server.runCommand(new ServerActor.ClientReport(upload(0, 1, 0.1, 0.2), null, 1, 20, 0))
                .events().isEmpty(), "the wrong dimension is refused by the method's screen");
        assertTrue(server.runCommand(new ServerActor.ClientReport(upload(0, 1, 0.1, 0.2, 0.3), null, 2, 20, 0))
                .events().isEmpty(), "an answer to an attempt that was never opened");
        assertEquals(1, server.getState().open().accepted().size());

        server.runCommand(new ServerActor.ClientReport(upload(0, 1, -0.1, 0.0, 0.3), null, 1, 20, 0));
        answer(pool); // the evaluation after round 1, once the round has closed
        ServerState finished = awaitFinished(listener);
        assertEquals(1, finished.roundsCompleted());
        RoundSummary round = finished.rounds().get(0);
        assertEquals(2, round.reported());
        assertEquals(List.of("sigma"), new ArrayList<>(round.metrics().keySet()));
        assertEquals(METHOD.evaluationPrompt(finished.global()).sha256(), round.promptSha256());
        assertEquals(0.5, round.testAccuracy());
        assertEquals(List.of("recovered", "zero-shot 0.5", "round 1"), listener.calls);
    }

    @Test
    void theRoundDeadlineDropsSilentClientsAndKeepsThoseStillMakingProgress() throws InterruptedException {
        TestProbe<ClientActor.Train> clients = KIT.createTestProbe();
        TestProbe<InferencePool.Request> pool = KIT.createTestProbe();
        Listener listener = new Listener();
        ServerActor.Settings settings = new ServerActor.Settings("hash", 12L, 1, 1, 2, 1.0, 0.5,
                Duration.ofSeconds(1), 1, 100);
        Evaluator.TestSet testSet = Evaluator.TestSet.accuracyOnly(List.of(new int[] {2, 7}), new int[] {0}, 2);
        EventSourcedBehaviorTestKit<ServerActor.Command, ServerEvent, ServerState> server =
                EventSourcedBehaviorTestKit.create(KIT.system(), ServerActor.create(settings, METHOD,
                        (clientId, train) -> clients.getRef().tell(train), pool.getRef(), testSet,
                        FaultInjector.NONE, listener),
                        EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyCommands(false));
        // The test kit's first command starts a journal query stream, which took over 400 ms on a busy machine: long
        // enough for a deadline to pass before client 0's first step reached the server. Started before the round.
        server.runCommand(new ServerActor.ClientProgressed(1, 1, 0));
        answer(pool);
        clients.receiveSeveralMessages(2, Duration.ofSeconds(10));

        // Client 0 reports a step every 100 ms for three deadlines' time; client 1 says nothing.
        long end = System.nanoTime() + Duration.ofMillis(3000).toNanos();
        while (System.nanoTime() < end) {
            server.runCommand(new ServerActor.ClientProgressed(1, 1, 0));
            Thread.sleep(100);
        }
        OpenRound open = server.getState().open();
        assertEquals(List.of(1), open.dropped().stream().map(OpenRound.Dropped::clientId).toList(),
                "the silent client is dropped, the working one is not: " + open.dropped());
        assertEquals(List.of("missed the round deadline"),
                open.dropped().stream().map(OpenRound.Dropped::reason).toList());
        server.runCommand(new ServerActor.ClientReport(upload(0, 0, 0.1, 0.2, 0.3), null, 1, 20, 0));
        answer(pool);
        ServerState finished = awaitFinished(listener);
        assertEquals(1, finished.rounds().get(0).reported(), "the round closed on the working client's answer");
    }

    private static ServerState awaitFinished(Listener listener) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (listener.finished == null && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(listener.finished != null, "the run finished: " + listener.calls);
        return listener.finished;
    }
}
