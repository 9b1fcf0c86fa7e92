package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.Upload;

/**
 * A device's answer to a training round: its federated layers' prefix after local training (float32; every layer
 * in a warm-up round), its mean minibatch loss, its rows n_i, its local steps K_i (the control variate divides by
 * them) and, in a warm-up round, its layer scores (layers 0 .. L-2; empty otherwise).
 */
record PepTaoUpload(int round, int clientId, double loss, int sampleCount, int steps, float[] selected,
                    double[] layerScores) implements Upload {
    @Override
    public String codec() {
        return PepTaoPayloads.NAME;
    }
}
