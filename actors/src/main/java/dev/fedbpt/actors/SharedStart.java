package dev.fedbpt.actors;

import dev.fedbpt.engine.cmaes.AskTell;
import dev.fedbpt.engine.fedbpt.ClientSearch;
import dev.fedbpt.engine.fedbpt.ClientSearchConfig;
import dev.fedbpt.engine.fedbpt.GlobalState;

/**
 * The clients of one JVM start every round from the same global state; the first of them decomposes its covariance
 * (O(d^3), about 0.45 s at d = 500) and the others copy the result instead of repeating it. Bit-identical to each
 * client building its own. Holds only the latest round's state.
 */
public final class SharedStart {
    private final ClientSearchConfig config;
    private GlobalState global;
    private AskTell prepared;

    public SharedStart(ClientSearchConfig config) {
        this.config = config;
    }

    /** The prepared starting point for {@code state}; callers copy it (ClientSearch does). */
    synchronized AskTell of(GlobalState state) {
        if (state != global) { // the server hands every client of a round the same instance
            prepared = ClientSearch.startingPoint(state.cmaes(), config);
            global = state;
        }
        return prepared;
    }
}
