package dev.fedbpt.engine.fedbbpt;

import dev.fedbpt.engine.method.Upload;
import java.util.Arrays;

/**
 * A client's answer to a training round: its theta after one local epoch, the mean of the sampled losses of its last
 * step whose losses were all finite (its last round's when it took no step this round), its example count and the
 * API calls it spent this round.
 */
public record ThetaUpload(int round, int clientId, double loss, int sampleCount, double[][] theta, int apiCalls)
        implements Upload {
    public ThetaUpload {
        if (round < 0 || clientId < 0 || apiCalls < 0) {
            throw new IllegalArgumentException("round, clientId and apiCalls must be >= 0");
        }
        if (sampleCount < 1) {
            throw new IllegalArgumentException("sampleCount must be >= 1, was " + sampleCount);
        }
        theta = Matrices.copy(theta);
    }

    @Override
    public String codec() {
        return FedBbptPayloads.NAME;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ThetaUpload u && round == u.round && clientId == u.clientId
                && Double.doubleToLongBits(loss) == Double.doubleToLongBits(u.loss) && sampleCount == u.sampleCount
                && apiCalls == u.apiCalls && Arrays.deepEquals(theta, u.theta);
    }

    @Override
    public int hashCode() {
        return ((31 * round + clientId) * 31 + Double.hashCode(loss)) * 31 + Arrays.deepHashCode(theta) + apiCalls;
    }

    @Override
    public String toString() {
        return "ThetaUpload[round=" + round + ", clientId=" + clientId + ", loss=" + loss + ", sampleCount="
                + sampleCount + ", n=" + theta.length + ", apiCalls=" + apiCalls + "]";
    }
}
