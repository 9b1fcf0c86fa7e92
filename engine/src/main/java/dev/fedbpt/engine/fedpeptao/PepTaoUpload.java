package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.Upload;

/**
 * A device's answer to a round: its selected layers' prefix after local training (float32), its mean minibatch loss,
 * its rows n_i and its local steps K_i (the control variate divides by them).
 */
record PepTaoUpload(int round, int clientId, double loss, int sampleCount, int steps, float[] selected)
        implements Upload {
    @Override
    public String codec() {
        return PepTaoPayloads.NAME;
    }
}
