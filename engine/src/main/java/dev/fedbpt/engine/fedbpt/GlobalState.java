package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.CmaesState;

/** The server's state after {@code round} completed rounds. */
public record GlobalState(int round, CmaesState cmaes) {
    public GlobalState {
        if (round < 0) {
            throw new IllegalArgumentException("round must be >= 0, was " + round);
        }
        if (cmaes == null) {
            throw new IllegalArgumentException("cmaes must not be null");
        }
    }
}
