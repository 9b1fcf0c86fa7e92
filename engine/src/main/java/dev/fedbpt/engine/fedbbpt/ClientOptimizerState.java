package dev.fedbpt.engine.fedbbpt;

import dev.fedbpt.engine.method.ClientMemory;
import java.util.Arrays;

/**
 * What a client keeps between its rounds: its AdamW first and second moments and step count (empty and 0 when the
 * moments are reset every round), the API calls it has spent so far (the budget is per client and per run) and the
 * last finite step loss it measured (reported when the budget leaves it no step in a round).
 */
public record ClientOptimizerState(double[][] firstMoment, double[][] secondMoment, long adamSteps, long apiCalls,
                                   double lastLoss) implements ClientMemory {
    public ClientOptimizerState {
        firstMoment = Matrices.copy(firstMoment);
        secondMoment = Matrices.copy(secondMoment);
        if (adamSteps < 0 || apiCalls < 0) {
            throw new IllegalArgumentException("adamSteps and apiCalls must be >= 0");
        }
        if (firstMoment.length != secondMoment.length) {
            throw new IllegalArgumentException("the moments differ in shape");
        }
        for (int i = 0; i < firstMoment.length; i++) {
            if (firstMoment[i].length != secondMoment[i].length) {
                throw new IllegalArgumentException("the moments differ in shape at row " + i);
            }
        }
    }

    @Override
    public String codec() {
        return FedBbptPayloads.NAME;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientOptimizerState s && adamSteps == s.adamSteps && apiCalls == s.apiCalls
                && Double.doubleToLongBits(lastLoss) == Double.doubleToLongBits(s.lastLoss)
                && Arrays.deepEquals(firstMoment, s.firstMoment) && Arrays.deepEquals(secondMoment, s.secondMoment);
    }

    @Override
    public int hashCode() {
        return (Arrays.deepHashCode(firstMoment) * 31 + Arrays.deepHashCode(secondMoment)) * 31
                + Long.hashCode(adamSteps) * 7 + Long.hashCode(apiCalls) + Double.hashCode(lastLoss);
    }

    @Override
    public String toString() {
        return "ClientOptimizerState[rows=" + firstMoment.length + ", adamSteps=" + adamSteps + ", apiCalls="
                + apiCalls + ", lastLoss=" + lastLoss + "]";
    }
}
