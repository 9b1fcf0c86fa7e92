package dev.fedbpt.engine.fedbpt;

import java.util.List;

/**
 * states.get(t) is the global state after round t + 1; meanClientLoss[t] is the mean uploaded clean loss of round t
 * (clients summed in id order); sigma[t] is the global sigma after round t + 1.
 */
public record SimulationResult(GlobalState initial, List<GlobalState> states, double[] meanClientLoss,
                               double[] sigma, int nonFiniteCount) {
    public SimulationResult {
        states = List.copyOf(states);
    }

    public GlobalState last() {
        return states.get(states.size() - 1);
    }
}
