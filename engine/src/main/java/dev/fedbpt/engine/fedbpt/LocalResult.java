package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.method.Upload;

/**
 * A client's upload for one round: final local mean, the sigma of each local iteration, and the loss of the mean.
 *
 * <p>FedAvg-BBT averages the clients' whole local CMA-ES states. A client does not send its state (the d x d
 * covariance, about 1 MB at d = 500): it sends {@code told}, the fitness values it told its search in each iteration
 * (I x lambda numbers), from which the server replays the search bit for bit ({@link ClientSearch#replay}) and fills
 * in {@code localState}. FedBPT's clients send neither (both null, see {@link ClientSearchConfig#uploadLocalState()}).
 */
public record LocalResult(int round, int clientId, double[] mean, double[] sigmas, double loss, int sampleCount,
                          CmaesState localState, double[][] told) implements Upload {
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

    /** A result without told fitness values (FedBPT's upload, or a state already rebuilt). */
    public LocalResult(int round, int clientId, double[] mean, double[] sigmas, double loss, int sampleCount,
                       CmaesState localState) {
        this(round, clientId, mean, sigmas, loss, sampleCount, localState, null);
    }

    /** The same result with the local state the server rebuilt from {@link #told()}. */
    public LocalResult withLocalState(CmaesState state) {
        return new LocalResult(round, clientId, mean, sigmas, loss, sampleCount, state, told);
    }

    @Override
    public String codec() {
        return CmaesPayloads.NAME;
    }
}
