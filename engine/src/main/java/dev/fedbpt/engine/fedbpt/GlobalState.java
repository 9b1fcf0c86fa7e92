package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.MethodState;

/**
 * The server's state after {@code round} completed rounds; also what every sampled client receives (the reference
 * code ships its whole CMA-ES).
 */
public record GlobalState(int round, CmaesState cmaes) implements MethodState, Downlink {
    public GlobalState {
        if (round < 0) {
            throw new IllegalArgumentException("round must be >= 0, was " + round);
        }
        if (cmaes == null) {
            throw new IllegalArgumentException("cmaes must not be null");
        }
    }

    @Override
    public String codec() {
        return CmaesPayloads.NAME;
    }
}
