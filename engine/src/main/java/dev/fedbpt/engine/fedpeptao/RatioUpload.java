package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.Upload;

/** A device's answer to the selection round: the keep ratio its Hessian spectrum gives, its mean loss and rows. */
record RatioUpload(int round, int clientId, double loss, int sampleCount, double ratio) implements Upload {
    @Override
    public String codec() {
        return PepTaoPayloads.NAME;
    }
}
