package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.Upload;

/**
 * A device's answer to the personalisation round: how its prefix (its own layers with the global selected ones)
 * scored on its own test rows, as the code evaluates each device.
 */
record PersonalAccuracy(int round, int clientId, double loss, int sampleCount, boolean participant, int correct,
                        int testCount) implements Upload {
    @Override
    public String codec() {
        return PepTaoPayloads.NAME;
    }
}
