package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.MethodState;

import java.util.List;

/**
 * The BBT baselines' server state, which is also what clients receive: the rounds aggregated, the global z (fp16
 * values, zero before the first round) and after the personalisation round every client's result.
 */
record BbtState(int round, float[] z, List<PersonalResult> personal) implements MethodState, Downlink {
    BbtState {
        personal = List.copyOf(personal);
    }

    @Override
    public String codec() {
        return DlsEcPayloads.NAME;
    }
}
