package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.Upload;

/**
 * A client's answer to a federated round: per prompt position the token its local search put there, or
 * {@link #SKIP}. {@code loss} is its final prompt's loss on its last batch.
 */
record SearchUpload(int round, int clientId, double loss, int sampleCount, int[] ids) implements Upload {
    static final int SKIP = -1;

    @Override
    public String codec() {
        return DlsEcPayloads.NAME;
    }
}
