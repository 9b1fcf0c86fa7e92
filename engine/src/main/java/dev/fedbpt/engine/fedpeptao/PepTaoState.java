package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.MethodState;
import java.util.List;
import java.util.SortedMap;

/**
 * The server's state between rounds (the code's run_getpr_perclient.py, then run_fed_pers_with_optim_v2.py): the
 * global prefix (every layer: the selected ones federated, the others as initialised), the federated layers (null
 * while Algorithm 1 still chooses them) and the round Algorithm 2 started in, the devices' layer scores gathered in
 * the warm-up rounds, the keep ratio once measured (NaN before), and over the selected layers the global control
 * variate c_g, the momentum m, the last round's Delta, the server's learning rate eta and each device's control
 * variate c_i (devices never sampled hold zeros and are left out). Only the server holds c_i, c_g and m: they never
 * travel. After the personalisation round, {@code personal} holds every device's result on its own test rows.
 *
 * @param deltaPrev null before Algorithm 2's first aggregation (the code takes no momentum step in its first round)
 */
record PepTaoState(int round, float[] global, int[] selected, int restart, List<DeviceScores> layerScores,
                   double keepRatio, double[] cg, double[] m, double[] deltaPrev, double eta,
                   SortedMap<Integer, double[]> ci, List<PersonalAccuracy> personal) implements MethodState {
    @Override
    public String codec() {
        return PepTaoPayloads.NAME;
    }

    /** A device's layer scores (layers 0 .. L-2) and its rows, the consensus's weight. */
    record DeviceScores(int clientId, int rows, double[] scores) {}
}
