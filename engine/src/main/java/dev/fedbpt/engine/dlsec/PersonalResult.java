package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.Upload;

/**
 * A client's answer to the personalisation round: how its post-tuned prompt (and, for comparison, the global prompt
 * P' alone) scored on its own test rows. {@code loss} is post-tuning's best training loss.
 */
record PersonalResult(int round, int clientId, double loss, int sampleCount, boolean participant, int tunedCorrect,
                      int globalCorrect, int testCount) implements Upload {
    @Override
    public String codec() {
        return DlsEcPayloads.NAME;
    }
}
