package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.method.Upload;

/**
 * A client's upload for one round: final local mean, the sigma after each local iteration, and the plain clean
 * loss of the mean. localState is needed by FedAvg-BBT (it averages covariances); FedBPT's clients do not upload
 * it (null, see {@link ClientSearchConfig#uploadLocalState()}).
 */
public record LocalResult(int round, int clientId, double[] mean, double[] sigmas, double loss, int sampleCount,
                          CmaesState localState) implements Upload {
    public LocalResult {
        if (mean == null || sigmas == null) {
            throw new IllegalArgumentException("mean and sigmas must not be null");
        }
        if (localState != null && mean.length != localState.dimension()) {
            throw new IllegalArgumentException("mean has length " + mean.length + " but localState dimension "
                    + localState.dimension());
        }
        if (sampleCount < 1) {
            throw new IllegalArgumentException("sampleCount must be >= 1, was " + sampleCount);
        }
        if (round < 0 || clientId < 0) {
            throw new IllegalArgumentException("round and clientId must be >= 0");
        }
    }

    @Override
    public String codec() {
        return CmaesPayloads.NAME;
    }
}
