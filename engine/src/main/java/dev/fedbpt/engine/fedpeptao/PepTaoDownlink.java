package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.Downlink;

/** What a sampled device receives: the selected layers' global prefix (float32). */
record PepTaoDownlink(int round, float[] selected) implements Downlink {
    @Override
    public String codec() {
        return PepTaoPayloads.NAME;
    }
}
