package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.fedbpt.ClientSearchConfig;
import dev.fedbpt.engine.fedbpt.FedBptMethod;
import dev.fedbpt.engine.fedbpt.FedBptStrategy;
import dev.fedbpt.engine.fedbpt.LocalResult;
import dev.fedbpt.engine.method.ClientMemory;
import dev.fedbpt.persistence.RoundIncidents;
import dev.fedbpt.persistence.ServerEvent;
import dev.fedbpt.persistence.ServerState;
import org.junit.jupiter.api.Test;

/**
 * What clients keep across rounds lives in the server's state, rebuilt from the journal like the rest: a client's
 * memory becomes its current one when the round that produced it closes, and stays until its next round replaces it.
 */
class ServerStateMemoryTest {
    private static final FedBptMethod METHOD = new FedBptMethod("test", new FedBptStrategy(5, 1),
            new ClientSearchConfig(1, 5, 0.0, false), 2, 1.0, true, 0L);

    record Note(String text) implements ClientMemory {
        @Override
        public String codec() {
            return "test";
        }
    }

    private static LocalResult upload(int round, int client) {
        return new LocalResult(round, client, new double[] {0.1 * client, 0}, new double[] {1.0}, 0.5, 4, null);
    }

    @Test
    void aClientsMemoryTakesEffectWhenItsRoundClosesAndLastsUntilReplaced() {
        ServerState state = ServerState.empty()
                .apply(new ServerEvent.ExperimentStarted("hash"), METHOD)
                .apply(new ServerEvent.RoundOpened(1, 1, new int[] {0, 1}), METHOD)
                .apply(new ServerEvent.ResultAccepted(0, upload(0, 1), new Note("one after round 1")), METHOD)
                .apply(new ServerEvent.ResultAccepted(0, upload(0, 0), null), METHOD);
        assertNull(state.memoryOf(1), "not before the round closes");
        state = state.apply(new ServerEvent.RoundClosed(1, 0, 0, RoundIncidents.NONE), METHOD);
        assertEquals(new Note("one after round 1"), state.memoryOf(1));
        assertNull(state.memoryOf(0));

        state = state.apply(new ServerEvent.RoundOpened(2, 1, new int[] {0, 2}), METHOD)
                .apply(new ServerEvent.ResultAccepted(1, upload(1, 2), new Note("two after round 2")), METHOD)
                .apply(new ServerEvent.ResultAccepted(1, upload(1, 0), new Note("zero after round 2")), METHOD)
                .apply(new ServerEvent.RoundClosed(2, 0, 0, RoundIncidents.NONE), METHOD);
        assertEquals(new Note("one after round 1"), state.memoryOf(1), "kept while client 1 sat out");
        assertEquals(new Note("zero after round 2"), state.memoryOf(0));
        assertEquals(new Note("two after round 2"), state.memoryOf(2));
        assertEquals(java.util.List.of(0, 1, 2), state.memories().stream().map(k -> k.clientId()).toList());

        state = state.apply(new ServerEvent.RoundOpened(3, 1, new int[] {1}), METHOD)
                .apply(new ServerEvent.ResultAccepted(2, upload(2, 1), new Note("one after round 3")), METHOD)
                .apply(new ServerEvent.RoundClosed(3, 0, 0, RoundIncidents.NONE), METHOD);
        assertEquals(new Note("one after round 3"), state.memoryOf(1));
        assertEquals(3, state.memories().size());
    }

    @Test
    void theRoundReportsTheMethodsMetricsAndPromptFingerprint() {
        ServerState state = ServerState.empty()
                .apply(new ServerEvent.ExperimentStarted("hash"), METHOD)
                .apply(new ServerEvent.RoundOpened(1, 1, new int[] {0, 1}), METHOD)
                .apply(new ServerEvent.ResultAccepted(0, upload(0, 1), null), METHOD)
                .apply(new ServerEvent.ResultAccepted(0, upload(0, 0), null), METHOD)
                .apply(new ServerEvent.RoundClosed(1, 0, 0, RoundIncidents.NONE), METHOD);
        assertEquals(METHOD.metrics(state.global()), state.rounds().get(0).metrics());
        assertEquals(java.util.List.of("sigma"), java.util.List.copyOf(state.rounds().get(0).metrics().keySet()));
        assertEquals(METHOD.evaluationPrompt(state.global()).sha256(), state.rounds().get(0).promptSha256());
        assertEquals(CmaesState.class, ((dev.fedbpt.engine.fedbpt.GlobalState) state.global()).cmaes().getClass());
    }
}
