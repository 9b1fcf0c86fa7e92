package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.MethodState;
import java.util.SortedMap;

/**
 * The server's state between rounds (the code's run_fed_pers_with_optim_v2.py): the global prefix (every layer: the
 * selected ones federated, the others as initialised), the global control variate c_g, the momentum m and the last
 * round's Delta over the selected layers, the server's learning rate eta, and each device's control variate c_i
 * (devices never sampled hold zeros and are left out). Only the server holds c_i, c_g and m: they never travel.
 * After the personalisation round, {@code personal} holds every device's result on its own test rows.
 *
 * @param deltaPrev null before the first aggregation (the code takes no momentum step in its first round)
 */
record PepTaoState(int round, float[] global, double[] cg, double[] m, double[] deltaPrev, double eta,
                   SortedMap<Integer, double[]> ci, java.util.List<PersonalAccuracy> personal)
        implements MethodState {
    @Override
    public String codec() {
        return PepTaoPayloads.NAME;
    }
}
