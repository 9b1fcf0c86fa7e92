package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.ClientMemory;

/** What a client keeps after post-tuning: its z, so that its own prompt P' + A z is stored with the run. */
record PersonalPrompt(double[] z) implements ClientMemory {
    @Override
    public String codec() {
        return DlsEcPayloads.NAME;
    }
}
