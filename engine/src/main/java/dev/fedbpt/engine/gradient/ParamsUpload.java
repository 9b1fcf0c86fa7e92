package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.Upload;

/** A client's parameters after its local epochs (float32), its mean minibatch loss and its row count. */
record ParamsUpload(int round, int clientId, double loss, int sampleCount, float[] params) implements Upload {
    @Override
    public String codec() {
        return GradientPayloads.NAME;
    }
}
