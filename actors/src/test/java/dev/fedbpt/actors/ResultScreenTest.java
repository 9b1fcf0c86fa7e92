package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.fedbpt.ClientSearchConfig;
import dev.fedbpt.engine.fedbpt.FedAvgBbtStrategy;
import dev.fedbpt.engine.fedbpt.FedBptMethod;
import dev.fedbpt.engine.fedbpt.FedBptStrategy;
import dev.fedbpt.engine.fedbpt.LocalResult;
import dev.fedbpt.engine.fedbpt.ServerStrategy;
import dev.fedbpt.persistence.RoundIncidents;
import dev.fedbpt.persistence.ServerEvent;
import dev.fedbpt.persistence.ServerState;
import org.junit.jupiter.api.Test;

class ResultScreenTest {
    private static final int D = 3;
    /** FedAvg-BBT averages the clients' local states, so it needs them; FedBPT does not. */
    private static final FedBptMethod STRATEGY = method(new FedAvgBbtStrategy());
    private static final FedBptMethod MEANS_ONLY = method(new FedBptStrategy(5, 1));

    private static FedBptMethod method(ServerStrategy strategy) {
        return new FedBptMethod("test", strategy, new ClientSearchConfig(1, 5, 0.0, strategy.needsLocalStates()), D,
                1.0, true, 0L);
    }

    /** Round 2 (1-based) open at attempt 2 with clients 0 and 2 sampled; round 1 completed. */
    private static ServerState roundTwoAttemptTwo() {
        ServerState state = ServerState.empty()
                .apply(new ServerEvent.ExperimentStarted("hash"), STRATEGY)
                .apply(new ServerEvent.RoundOpened(1, 1, new int[] {0, 1}), STRATEGY)
                .apply(new ServerEvent.ResultAccepted(0, result(0, 0, 0.5), null), STRATEGY)
                .apply(new ServerEvent.ResultAccepted(0, result(0, 1, 0.5), null), STRATEGY)
                .apply(new ServerEvent.RoundClosed(1, 0, 0, RoundIncidents.NONE), STRATEGY)
                .apply(new ServerEvent.RoundOpened(2, 1, new int[] {1}), STRATEGY)
                .apply(new ServerEvent.ClientDropped(2, 1, "missed the round deadline"), STRATEGY);
        return state.apply(new ServerEvent.RoundOpened(2, 2, new int[] {0, 2}), STRATEGY);
    }

    private static LocalResult result(int engineRound, int client, double loss, double... mean) {
        double[] m = mean.length == 0 ? new double[D] : mean;
        return new LocalResult(engineRound, client, m, new double[] {1.0}, loss, 4,
                CmaesState.initial(new double[m.length], 1.0));
    }

    private static ResultScreen.Verdict screen(LocalResult result, int attempt) {
        return ResultScreen.screen(roundTwoAttemptTwo(), result, attempt, STRATEGY);
    }

    @Test
    void acceptsASampledClientsFirstAnswerToTheOpenAttempt() {
        assertEquals(ResultScreen.Kind.ACCEPT, screen(result(1, 2, 0.3), 2).kind());
    }

    @Test
    void answersToClosedRoundsOrEarlierAttemptsAreLate() {
        assertEquals(ResultScreen.Kind.LATE, screen(result(0, 0, 0.3), 1).kind());
        assertEquals(ResultScreen.Kind.LATE, screen(result(1, 1, 0.3), 1).kind());
    }

    @Test
    void anAnswerFromAClientDroppedFromTheOpenAttemptIsLate() {
        ServerState dropped = roundTwoAttemptTwo()
                .apply(new ServerEvent.ClientDropped(2, 2, "missed the round deadline"), STRATEGY);
        ResultScreen.Verdict verdict = ResultScreen.screen(dropped, result(1, 2, 0.3), 2, STRATEGY);
        assertEquals(ResultScreen.Kind.LATE, verdict.kind());
        assertTrue(verdict.reason().contains("was dropped from round 2 attempt 2"), verdict.reason());
    }

    @Test
    void rogueResultsAreRejectedWithAReason() {
        assertRejected(screen(result(2, 0, 0.3), 2), "no such round");
        assertRejected(screen(result(1, 0, 0.3), 3), "no such round");
        assertRejected(screen(result(1, 1, 0.3), 2), "not sampled");
        assertRejected(screen(result(1, 0, 0.3, 1, 2), 2), "dimension 2, expected 3");
        assertRejected(screen(result(1, 0, Double.NaN), 2), "non-finite");
        assertRejected(screen(result(1, 0, 0.3, 1, Double.POSITIVE_INFINITY, 0), 2), "non-finite");
        ServerState answered = roundTwoAttemptTwo()
                .apply(new ServerEvent.ResultAccepted(1, result(1, 0, 0.3), null), STRATEGY);
        assertRejected(ResultScreen.screen(answered, result(1, 0, 0.2), 2, STRATEGY), "duplicate");
    }

    @Test
    void aMissingLocalStateIsRejectedOnlyWhereTheMethodAveragesThem() {
        LocalResult meanOnly = new LocalResult(1, 2, new double[D], new double[] {1.0}, 0.3, 4, null);
        assertRejected(screen(meanOnly, 2), "neither a local CMA-ES state");
        assertEquals(ResultScreen.Kind.ACCEPT, ResultScreen.screen(roundTwoAttemptTwo(), meanOnly, 2, MEANS_ONLY).kind());
    }

    private static void assertRejected(ResultScreen.Verdict verdict, String reasonPart) {
        assertEquals(ResultScreen.Kind.REJECT, verdict.kind());
        assertTrue(verdict.reason().contains(reasonPart), verdict.reason());
    }
}
