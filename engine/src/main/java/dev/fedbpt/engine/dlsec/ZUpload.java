package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.Upload;

/** BBT(Fed): a client's final CMA-ES mean z after its local generations, rounded to fp16 as it travels. */
record ZUpload(int round, int clientId, double loss, int sampleCount, float[] z) implements Upload {
    @Override
    public String codec() {
        return DlsEcPayloads.NAME;
    }
}
