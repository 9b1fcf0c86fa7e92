package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.MethodState;

/**
 * A gradient method's global state, which is also what every client receives: the rounds aggregated and the global
 * parameters as float32 (as the model trains them and as they travel).
 */
record PromptState(int round, float[] params) implements MethodState, Downlink {
    @Override
    public String codec() {
        return GradientPayloads.NAME;
    }
}
