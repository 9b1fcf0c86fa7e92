package dev.fedbpt.engine.fedbbpt;

import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.MethodState;
import java.util.Arrays;

/**
 * The server's state after {@code round} completed rounds, also what every sampled client receives: the candidate
 * token ids (empty until the counts round has chosen them), theta (n rows over the candidates, each a categorical
 * distribution; no rows before candidates exist) and the API calls the accepted uploads have spent so far.
 * Arrays are copied in; read them, never write them.
 */
public record FedBbptState(int round, int[] candidates, double[][] theta, long apiCalls)
        implements MethodState, Downlink {
    public FedBbptState {
        if (round < 0 || apiCalls < 0) {
            throw new IllegalArgumentException("round and apiCalls must be >= 0");
        }
        if (candidates == null || theta == null) {
            throw new IllegalArgumentException("candidates and theta must not be null");
        }
        candidates = candidates.clone();
        theta = Matrices.copy(theta);
        if (candidates.length == 0 && theta.length != 0) {
            throw new IllegalArgumentException("theta must have no rows before candidates exist");
        }
        for (double[] row : theta) {
            if (row.length != candidates.length) {
                throw new IllegalArgumentException("theta rows must have " + candidates.length + " entries, one had "
                        + row.length);
            }
        }
    }

    /** Whether the candidates have been chosen (false: the next round is a counts round). */
    public boolean hasCandidates() {
        return candidates.length > 0;
    }

    /** n, the prompt positions (0 before candidates exist). */
    public int promptLength() {
        return theta.length;
    }

    @Override
    public String codec() {
        return FedBbptPayloads.NAME;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FedBbptState s && round == s.round && apiCalls == s.apiCalls
                && Arrays.equals(candidates, s.candidates) && Arrays.deepEquals(theta, s.theta);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * round + Long.hashCode(apiCalls)) + Arrays.hashCode(candidates))
                + Arrays.deepHashCode(theta);
    }

    @Override
    public String toString() {
        return "FedBbptState[round=" + round + ", candidates=" + candidates.length + ", n=" + theta.length
                + ", apiCalls=" + apiCalls + "]";
    }
}
