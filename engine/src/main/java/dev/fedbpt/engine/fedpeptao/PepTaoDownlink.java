package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.Downlink;

/**
 * What a sampled device receives: the federated layers (every layer before Algorithm 1 has chosen, the chosen ones
 * after: {@code selected}, null before), their global prefix (float32), and the round Algorithm 2 started in (what a
 * device kept from before it is dropped: training restarts from scratch).
 */
record PepTaoDownlink(int round, int[] selected, int restart, float[] params) implements Downlink {
    @Override
    public String codec() {
        return PepTaoPayloads.NAME;
    }
}
