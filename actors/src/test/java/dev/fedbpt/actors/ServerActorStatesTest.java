package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import akka.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.actors.cluster.ClientPlacement;
import dev.fedbpt.engine.fedbpt.ClientSearchConfig;
import dev.fedbpt.engine.fedbpt.FedBptMethod;
import dev.fedbpt.engine.fedbpt.FedBptStrategy;
import dev.fedbpt.engine.fedbpt.LocalResult;
import dev.fedbpt.persistence.Confusion;
import dev.fedbpt.persistence.RoundIncidents;
import dev.fedbpt.persistence.RoundSummary;
import dev.fedbpt.persistence.ServerEvent;
import dev.fedbpt.persistence.ServerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The server's command handler phase by phase ({@link ServerPhase}): what each phase journals and tells for each
 * command, and that what a phase does not allow is ignored, or counted as a late or refused answer, as it always
 * was. A phase is entered the way a run enters it: live, or by recovering a journal written for it, with commands
 * that reach the server while it recovers (they are handled in the recovered phase, before its next step).
 */
class ServerActorStatesTest {
    private static final FedBptMethod METHOD = new FedBptMethod("fedbpt", new FedBptStrategy(5, 2),
            new ClientSearchConfig(2, 5, 0.0, false), 3, 1.0, true, 0L);
    private static final Evaluator.TestSet TEST_SET = Evaluator.TestSet.accuracyOnly(
            List.of(new int[] {2, 7}, new int[] {4, 7}), new int[] {0, 1}, 2);
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final RoundIncidents TWO_DROPS_ELSEWHERE = new RoundIncidents(2, 0, 0, 0, 0, 0, 0, 0);

    /** Every test has a system of its own, so no journal of another test is ever recovered. */
    private ActorTestKit kit;
    private EventSourcedBehaviorTestKit<ServerActor.Command, ServerEvent, ServerState> testKit;
    private ServerActor.Settings settings;
    /** The probes the next incarnation of the server is created with. */
    private final AtomicReference<Incarnation> next = new AtomicReference<>();

    @BeforeEach
    void startSystem() {
        kit = ActorTestKit.create(EventSourcedBehaviorTestKit.config().withFallback(ConfigFactory.load()));
    }

    @AfterEach
    void stopSystem() {
        kit.shutdownTestKit();
    }

    /** A round message, with the client it went to. */
    private record Sent(int clientId, ClientActor.Train train) {}

    /** Records what the server tells the outside world. */
    private static final class Listener implements RunListener {
        final List<String> calls = new CopyOnWriteArrayList<>();
        volatile ServerState finished;

        @Override
        public void onRecovered(ServerState state, List<RoundSummary> finalRounds) {
            calls.add("recovered " + finalRounds.size());
        }

        @Override
        public void onZeroShot(double accuracy, Map<String, Double> taskMetrics, Confusion confusion) {
            calls.add("zero-shot " + accuracy);
        }

        @Override
        public void onEvaluationProgress(Evaluator.Progress progress) {
            calls.add("progress " + progress.scoredRows() + "/" + progress.totalRows());
        }

        @Override
        public void onRoundCompleted(RoundSummary summary, ServerState state) {
            calls.add("round " + summary.round());
        }

        @Override
        public void onFinished(ServerState state) {
            calls.add("finished " + state.roundsCompleted());
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

    /** One incarnation of the server (the test kit restarts it): what it was given, and its own reference. */
    private final class Incarnation {
        final TestProbe<Sent> clients = kit.createTestProbe();
        final TestProbe<InferencePool.Request> pool = kit.createTestProbe();
        final TestProbe<Object> watcher = kit.createTestProbe();
        final Listener listener = new Listener();
        final List<ServerActor.Command> whileRecovering;
        volatile ActorRef<ServerActor.Command> self;
        /** The zero-shot score request, once {@link #start} waited for it. */
        InferencePool.ScoreRows zeroShot;

        Incarnation(List<ServerActor.Command> whileRecovering) {
            this.whileRecovering = whileRecovering;
        }

        List<Sent> trains(int count) {
            return clients.receiveSeveralMessages(count, WAIT);
        }

        void expectStopped() {
            watcher.expectTerminated(self, WAIT);
        }
    }

    /**
     * Creates the test kit's server on a fresh journal and waits until it is idle (waiting for the zero-shot
     * scores), then starts it again from an empty journal, and waits until that one is idle: the kit empties the
     * journal just after its first incarnation started writing, so only a journal prepared while the server is idle
     * is known. The server a test gets is evaluating zero-shot.
     */
    private Incarnation start(ServerActor.Settings with) {
        settings = with;
        Incarnation first = new Incarnation(List.of());
        next.set(first);
        Behavior<ServerActor.Command> behavior = Behaviors.setup(context -> {
            Incarnation incarnation = next.get();
            incarnation.self = context.getSelf();
            incarnation.whileRecovering.forEach(context.getSelf()::tell); // stashed until recovery completes
            return ServerActor.create(settings, METHOD,
                    (clientId, train) -> incarnation.clients.getRef().tell(new Sent(clientId, train)),
                    incarnation.pool.getRef(), TEST_SET, FaultInjector.NONE, incarnation.listener);
        });
        testKit = EventSourcedBehaviorTestKit.create(kit.system(), behavior,
                EventSourcedBehaviorTestKit.enabledSerializationSettings().withVerifyCommands(false));
        first.pool.expectMessageClass(InferencePool.ScoreRows.class, WAIT);
        Incarnation fresh = recover(List.of());
        fresh.zeroShot = fresh.pool.expectMessageClass(InferencePool.ScoreRows.class, WAIT);
        return fresh;
    }

    /**
     * Restarts the server, which must be idle or stopped, on a journal of exactly {@code events}, sending it {@code whileRecovering} before
     * its recovery completes; returns the new incarnation.
     */
    private Incarnation recover(List<ServerEvent> events, ServerActor.Command... whileRecovering) {
        testKit.persistenceTestKit().clearByPersistenceId(ServerActor.PERSISTENCE_ID);
        testKit.persistenceTestKit().persistForRecovery(ServerActor.PERSISTENCE_ID, new ArrayList<>(events));
        Incarnation incarnation = new Incarnation(List.of(whileRecovering));
        next.set(incarnation);
        try {
            testKit.restart();
        } catch (IllegalStateException stoppedAlready) {
            // a phase that stops at once may stop before the kit asks for its state; the test looks at what it did
        }
        return incarnation;
    }

    private static ServerActor.Settings settings(int rounds, double quorum, int maxAttempts) {
        return new ServerActor.Settings("hash", 11L, rounds, 1, 2, 1.0, quorum, Duration.ofSeconds(60), maxAttempts,
                100);
    }

    private List<Object> journal() {
        return testKit.persistenceTestKit().persistedInStorage(ServerActor.PERSISTENCE_ID);
    }

    private ServerEvent.RoundClosed lastRoundClosed() {
        List<Object> journal = journal();
        for (int i = journal.size() - 1; i >= 0; i--) {
            if (journal.get(i) instanceof ServerEvent.RoundClosed closed) {
                return closed;
            }
        }
        throw new AssertionError("no round closed: " + journal);
    }

    private static LocalResult upload(int engineRound, int client) {
        return new LocalResult(engineRound, client, new double[] {0.1 * client, 0.2, 0.3}, new double[] {1.0, 0.9},
                0.5, 4, null);
    }

    private static ServerActor.ClientReport report(int round, int attempt, int client) {
        return new ServerActor.ClientReport(upload(round - 1, client), null, attempt, 20, 0);
    }

    /** Answers a score request with class 0 winning on rows that start with an even token: accuracy 1/2. */
    private static void answer(TestProbe<InferencePool.Request> pool) {
        answer(pool.expectMessageClass(InferencePool.ScoreRows.class, WAIT));
    }

    private static void answer(InferencePool.ScoreRows score) {
        float[][] scores = new float[score.rows().size()][];
        for (int r = 0; r < scores.length; r++) {
            scores[r] = score.rows().get(r)[0] % 2 == 0 ? new float[] {1, 0} : new float[] {0, 1};
        }
        score.replyTo().tell(new InferencePool.Scored(score.requestId(), scores));
    }

    private int[] sampled(int round, int attempt) {
        return settings.participation().clients(settings.seed(), round - 1, attempt - 1, settings.sampleFraction());
    }

    /** A journal in which round 1 of both clients closed. */
    private List<ServerEvent> throughRoundOne() {
        return List.of(new ServerEvent.ExperimentStarted("hash"), evaluated(0),
                new ServerEvent.RoundOpened(1, 1, sampled(1, 1)),
                new ServerEvent.ResultAccepted(1, upload(0, 0), null),
                new ServerEvent.ResultAccepted(1, upload(0, 1), null),
                new ServerEvent.RoundClosed(1, 40, 5, RoundIncidents.NONE));
    }

    private static ServerEvent.PromptEvaluated evaluated(int round) {
        return new ServerEvent.PromptEvaluated(round, 0.5, Map.of(), Confusion.EMPTY, 3L);
    }

    private void assertNoEvents(ServerActor.Command command) {
        assertEquals(List.of(), testKit.runCommand(command).events(), command + " journals nothing");
    }

    @Test
    void everyStateIsInOnePhaseTakenInTheOrderTheServerTakesItsSteps() {
        ServerActor.Settings twoRounds = settings(2, 1.0, 1);
        settings = twoRounds;
        ServerState state = ServerState.empty();
        assertEquals(ServerPhase.NOT_STARTED, ServerPhase.of(state, twoRounds));
        assertEquals(ServerPhase.REFUSED, ServerPhase.of(
                state.apply(new ServerEvent.ExperimentStarted("other"), METHOD), twoRounds));
        List<ServerPhase> phases = new ArrayList<>();
        List<ServerEvent> events = new ArrayList<>(throughRoundOne());
        events.addAll(List.of(evaluated(1), new ServerEvent.RoundOpened(2, 1, sampled(2, 1)),
                new ServerEvent.ClientDropped(2, 0, "crashed"), new ServerEvent.ResultAccepted(2, upload(1, 1), null),
                new ServerEvent.RoundClosed(2, 20, 5, RoundIncidents.NONE), evaluated(2),
                new ServerEvent.ExperimentFinished(2)));
        for (ServerEvent event : events) {
            state = state.apply(event, METHOD);
            phases.add(ServerPhase.of(state, twoRounds));
        }
        assertEquals(List.of(ServerPhase.EVALUATING, ServerPhase.BETWEEN_ROUNDS, ServerPhase.ROUND_OPEN,
                ServerPhase.ROUND_OPEN, ServerPhase.ROUND_OPEN, ServerPhase.EVALUATING, ServerPhase.BETWEEN_ROUNDS,
                ServerPhase.ROUND_OPEN, ServerPhase.ROUND_OPEN, ServerPhase.ROUND_OPEN, ServerPhase.EVALUATING,
                ServerPhase.DONE, ServerPhase.DONE), phases);

        ServerActor.Settings evaluatingEveryOther = new ServerActor.Settings("hash", 11L, 3, 2, 2, 1.0, 1.0,
                Duration.ofSeconds(60), 1, 100);
        ServerState afterRoundOne = ServerState.empty();
        for (ServerEvent event : throughRoundOne()) {
            afterRoundOne = afterRoundOne.apply(event, METHOD);
        }
        assertEquals(ServerPhase.BETWEEN_ROUNDS, ServerPhase.of(afterRoundOne, evaluatingEveryOther),
                "round 1 of 3 is not evaluated when every second round is");
    }

    @Test
    void notStartedJournalsTheStartThenEvaluatesZeroShotAndCountsAnswersThatCameBefore() {
        Incarnation idle = start(settings(1, 1.0, 1));
        Incarnation server = recover(List.of(), report(1, 1, 0), new ServerActor.ClientFailed(1, 1, 0, "crashed"),
                new ServerActor.RoundDeadline(1, 1), new ServerActor.NodeLost("n1"),
                new ServerActor.ClientStarted(1, 1, 1, "n1"), new ServerActor.ResendUnconfirmed(1, 1),
                new ServerActor.FaultsInjected(TWO_DROPS_ELSEWHERE));

        InferencePool.ScoreRows zeroShot = server.pool.expectMessageClass(InferencePool.ScoreRows.class, WAIT);
        assertNull(zeroShot.prompt(), "the zero-shot evaluation scores without a prompt");
        assertEquals(List.of(new ServerEvent.ExperimentStarted("hash")), journal());
        assertEquals(List.of("recovered 0"), server.listener.calls);
        idle.expectStopped();

        answer(zeroShot);
        List<Sent> trains = server.trains(2);
        assertEquals(List.of(0, 1), trains.stream().map(Sent::clientId).toList(),
                "the failure and the lost member before the start dropped no one");
        testKit.runCommand(report(1, 1, 0));
        testKit.runCommand(report(1, 1, 1));
        answer(server.pool);
        server.expectStopped();
        ServerEvent.RoundClosed closed = lastRoundClosed();
        assertEquals(new RoundIncidents(2, 0, 0, 0, 0, 0, 1, 0), closed.incidents(),
                "the answer before the start was refused and the faults elsewhere counted, in round 1");
        assertEquals(List.of("recovered 0", "zero-shot 0.5", "round 1", "finished 1"), server.listener.calls);
    }

    @Test
    void refusedJournalsNothingAndStops() {
        start(settings(1, 1.0, 1));
        Incarnation server = recover(List.of(new ServerEvent.ExperimentStarted("other")), report(1, 1, 0),
                new ServerActor.ClientFailed(1, 1, 0, "crashed"), new ServerActor.RoundDeadline(1, 1),
                new ServerActor.ResendUnconfirmed(1, 1));
        server.expectStopped();
        assertEquals(List.of(new ServerEvent.ExperimentStarted("other")), journal());
        assertEquals(List.of("refused this run folder's journal belongs to another configuration (journal other, "
                + "given hash); refusing to mix them, nothing was changed"), server.listener.calls);
        server.pool.expectNoMessage(Duration.ofMillis(200));
        server.clients.expectNoMessage(Duration.ZERO);
    }

    @Test
    void evaluatingIgnoresRoundMessagesCountsAnswersAndJournalsTheOutcome() {
        Incarnation server = start(settings(1, 1.0, 1));

        assertNoEvents(report(1, 1, 0));
        assertNoEvents(new ServerActor.ClientFailed(1, 1, 0, "crashed"));
        assertNoEvents(new ServerActor.ClientStarted(1, 1, 0, "n1"));
        assertNoEvents(new ServerActor.ClientProgressed(1, 1, 0));
        assertNoEvents(new ServerActor.ClientStopped(1, 1, 0));
        assertNoEvents(new ServerActor.NodeLost("n1"));
        assertNoEvents(new ServerActor.RoundDeadline(1, 1));
        assertNoEvents(new ServerActor.ResendUnconfirmed(1, 1));
        assertNoEvents(new ServerActor.FaultsInjected(TWO_DROPS_ELSEWHERE));
        assertNoEvents(new ServerActor.Continue());
        server.pool.expectNoMessage(Duration.ofMillis(200)); // a second Continue starts no second evaluator
        server.clients.expectNoMessage(Duration.ZERO);
        assertNull(testKit.getState().open());

        assertNoEvents(new ServerActor.EvaluationProgressed(new Evaluator.Progress(0, 1, 2, Duration.ofMillis(4))));
        List<ServerEvent> events = testKit.runCommand(new ServerActor.EvaluationFinished(new Evaluator.Outcome(
                0, 0.75, Map.of(), Confusion.EMPTY, Duration.ofMillis(7), null))).events();
        assertEquals(new ServerEvent.PromptEvaluated(0, 0.75, Map.of(), Confusion.EMPTY, 7L), events.get(0));
        assertEquals(2, server.trains(2).size(), "then round 1 opens");
        assertEquals(List.of("recovered 0", "progress 1/2", "zero-shot 0.75"), server.listener.calls);

        testKit.runCommand(report(1, 1, 0));
        testKit.runCommand(report(1, 1, 1));
        server.pool.expectMessageClass(InferencePool.ScoreRows.class, WAIT); // the evaluation after round 1
        assertEquals(new RoundIncidents(2, 0, 0, 0, 0, 0, 1, 0), lastRoundClosed().incidents(),
                "the answer during the evaluation was refused, and counted in round 1 with the faults elsewhere");
    }

    @Test
    void evaluatingAfterARoundScoresItsPromptAndCountsItsLateAnswers() {
        start(settings(2, 1.0, 1));
        Incarnation server = recover(throughRoundOne(), report(1, 1, 0));
        InferencePool.ScoreRows score = server.pool.expectMessageClass(InferencePool.ScoreRows.class, WAIT);
        assertNotNull(score.prompt(), "the global prompt after round 1");
        assertEquals(List.of("recovered 0"), server.listener.calls, "round 1 is final once evaluated");
        assertNoEvents(report(1, 1, 1));

        answer(score);
        List<Sent> trains = server.trains(2);
        assertEquals(2, trains.get(0).train().round());
        assertEquals(1, ((ServerEvent.PromptEvaluated) journal().get(throughRoundOne().size())).round());
        testKit.runCommand(report(2, 1, 0));
        testKit.runCommand(report(2, 1, 1));
        answer(server.pool);
        server.expectStopped();
        assertEquals(new RoundIncidents(0, 0, 0, 0, 0, 0, 0, 2), lastRoundClosed().incidents(),
                "both answers of round 1 came late, and count in round 2");
        assertEquals(List.of("recovered 0", "round 1", "round 2", "finished 2"), server.listener.calls);
    }

    @Test
    void aFailedEvaluationStopsTheServerWithNothingJournalled() {
        Incarnation server = start(settings(1, 1.0, 1));
        // Told, not run: the kit would wait for the state of a server that stopped.
        server.self.tell(new ServerActor.EvaluationFinished(new Evaluator.Outcome(0, Double.NaN, Map.of(),
                Confusion.EMPTY, Duration.ZERO, "no inference node")));
        server.expectStopped();
        assertEquals(List.of(new ServerEvent.ExperimentStarted("hash")), journal());
        assertEquals(List.of("recovered 0", "failed evaluation after round 0 failed: no inference node"),
                server.listener.calls);
    }

    @Test
    void roundOpenJournalsAnswersAndDropsOfItsAttemptAndClosesWhenAllAreIn() {
        Incarnation server = start(settings(1, 0.5, 1));
        answer(server.zeroShot);
        server.trains(2);
        assertEquals(ServerPhase.ROUND_OPEN, ServerPhase.of(testKit.getState(), settings));

        List<ServerEvent> accepted = testKit.runCommand(report(1, 1, 0)).events();
        assertEquals(1, accepted.size());
        assertEquals(0, ((ServerEvent.ResultAccepted) accepted.get(0)).upload().clientId());
        assertNoEvents(report(1, 1, 0)); // a duplicate
        assertNoEvents(new ServerActor.ClientFailed(1, 1, 0, "crashed")); // answered already
        assertNoEvents(new ServerActor.ClientFailed(1, 2, 1, "crashed")); // an attempt that is not open
        assertNoEvents(new ServerActor.ClientProgressed(1, 1, 1));
        assertNoEvents(new ServerActor.RoundDeadline(1, 1)); // client 1 is still within the deadline
        assertNoEvents(new ServerActor.RoundDeadline(1, 2));
        assertNoEvents(new ServerActor.FaultsInjected(TWO_DROPS_ELSEWHERE));

        // Client 1 confirms its start on n1: a resend goes to no one; once its entity stops, to client 1 again.
        assertNoEvents(new ServerActor.ClientStarted(1, 1, 1, "n1"));
        assertNoEvents(new ServerActor.ResendUnconfirmed(1, 1));
        server.clients.expectNoMessage(Duration.ofMillis(200));
        assertNoEvents(new ServerActor.ClientStopped(1, 1, 1));
        assertNoEvents(new ServerActor.ResendUnconfirmed(1, 1));
        assertEquals(1, server.clients.receiveMessage(WAIT).clientId());
        assertNoEvents(new ServerActor.ClientStarted(1, 1, 1, "n1"));

        List<ServerEvent> dropped = testKit.runCommand(new ServerActor.NodeLost("n1")).events();
        assertEquals(new ServerEvent.ClientDropped(1, 1, ClientPlacement.dropReason("n1")), dropped.get(0));
        answer(server.pool); // every client is in: the round closed, and is evaluated
        server.expectStopped();
        ServerEvent.RoundClosed closed = lastRoundClosed();
        assertEquals(1, closed.round());
        assertEquals(20, closed.forwardRows(), "the accepted answer's rows only");
        assertEquals(new RoundIncidents(2, 0, 0, 0, 0, 0, 1, 0), closed.incidents(),
                "the duplicate was refused, and the faults elsewhere counted");
    }

    @Test
    void roundOpenResamplesWithoutAQuorumAndStopsAfterTheLastAttempt() {
        Incarnation server = start(settings(1, 1.0, 2));
        answer(server.zeroShot);
        server.trains(2);
        testKit.runCommand(new ServerActor.ClientFailed(1, 1, 0, "crashed"));
        testKit.runCommand(new ServerActor.ClientFailed(1, 1, 1, "crashed"));
        List<Sent> again = server.trains(2);
        assertEquals(List.of(2, 2), again.stream().map(sent -> sent.train().attempt()).toList());
        ServerEvent.RoundOpened reopened = (ServerEvent.RoundOpened) journal().get(journal().size() - 1);
        assertEquals(1, reopened.round());
        assertEquals(2, reopened.attempt());
        assertArrayEquals(sampled(1, 2), reopened.sampled());
        assertNoEvents(report(1, 1, 0)); // late: its attempt closed

        testKit.runCommand(new ServerActor.ClientFailed(1, 2, 0, "crashed"));
        server.self.tell(new ServerActor.ClientFailed(1, 2, 1, "crashed")); // the server stops on it
        server.expectStopped();
        assertEquals("failed round 1 reached no quorum in 2 attempts (the last: 0 of 2 results, 2 needed); "
                + "everything up to round 0 is stored, and `fedbpt resume` retries this round",
                server.listener.calls.get(server.listener.calls.size() - 1));
    }

    @Test
    void roundOpenAfterRecoverySendsTheRoundAgainToThoseWhoseAnswersWereNotStored() {
        start(settings(1, 1.0, 1));
        Incarnation server = recover(List.of(new ServerEvent.ExperimentStarted("hash"), evaluated(0),
                new ServerEvent.RoundOpened(1, 1, sampled(1, 1)),
                new ServerEvent.ResultAccepted(1, upload(0, 0), null)));
        Sent sent = server.clients.receiveMessage(WAIT);
        assertEquals(1, sent.clientId());
        assertEquals(1, sent.train().round());
        assertEquals(1, sent.train().attempt());
        server.clients.expectNoMessage(Duration.ofMillis(200));
        testKit.runCommand(report(1, 1, 1));
        answer(server.pool);
        server.expectStopped();
        assertEquals(List.of("recovered 0", "round 1", "finished 1"), server.listener.calls);
    }

    @Test
    void betweenRoundsOpensTheNextRoundAndCountsWhatCameForNone() {
        start(settings(1, 1.0, 1));
        Incarnation server = recover(List.of(new ServerEvent.ExperimentStarted("hash"), evaluated(0)),
                report(1, 1, 0), new ServerActor.ClientFailed(1, 1, 0, "crashed"),
                new ServerActor.ClientStarted(1, 1, 0, "n1"), new ServerActor.NodeLost("n1"),
                new ServerActor.RoundDeadline(1, 1), new ServerActor.FaultsInjected(TWO_DROPS_ELSEWHERE));
        List<Sent> trains = server.trains(2);
        assertEquals(List.of(0, 1), trains.stream().map(Sent::clientId).toList(),
                "no one was dropped before the round opened");
        List<Object> journal = journal();
        assertEquals(3, journal.size(), journal::toString);
        ServerEvent.RoundOpened opened = (ServerEvent.RoundOpened) journal.get(2);
        assertEquals(List.of(1, 1), List.of(opened.round(), opened.attempt()));
        assertArrayEquals(sampled(1, 1), opened.sampled());

        testKit.runCommand(report(1, 1, 0));
        testKit.runCommand(report(1, 1, 1));
        answer(server.pool);
        server.expectStopped();
        assertEquals(new RoundIncidents(2, 0, 0, 0, 0, 0, 1, 0), lastRoundClosed().incidents());
    }

    @Test
    void doneJournalsTheFinishOnceAndStops() {
        start(settings(1, 1.0, 1));
        List<ServerEvent> evaluatedRoundOne = new ArrayList<>(throughRoundOne());
        evaluatedRoundOne.add(evaluated(1));
        Incarnation server = recover(evaluatedRoundOne, report(1, 1, 0), new ServerActor.RoundDeadline(1, 1),
                new ServerActor.ClientFailed(1, 1, 0, "crashed"));
        server.expectStopped();
        List<Object> journal = journal();
        assertEquals(evaluatedRoundOne.size() + 1, journal.size(), journal::toString);
        assertEquals(new ServerEvent.ExperimentFinished(1), journal.get(journal.size() - 1));
        assertEquals(List.of("recovered 1", "finished 1"), server.listener.calls);

        Incarnation again = recover(journal.stream().map(ServerEvent.class::cast).toList());
        again.expectStopped();
        assertEquals(journal.size(), journal().size(), "a finished run journals nothing more");
        assertEquals(List.of("recovered 1", "finished 1"), again.listener.calls);
        assertTrue(again.listener.finished.finished());
    }

    @Test
    void giveUpStopsTheServerWithWhatIsStored() {
        Incarnation server = start(settings(1, 1.0, 1));
        answer(server.zeroShot);
        server.trains(2);
        server.self.tell(new ServerActor.GiveUp("no inference node is left"));
        server.expectStopped();
        assertEquals(3, journal().size(), "started, zero-shot evaluated, round 1 opened");
        assertEquals("failed no inference node is left; everything up to round 0 is stored, and `fedbpt resume` "
                + "goes on from there", server.listener.calls.get(server.listener.calls.size() - 1));
    }
}
