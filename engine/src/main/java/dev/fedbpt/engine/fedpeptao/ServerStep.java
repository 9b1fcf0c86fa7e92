package dev.fedbpt.engine.fedpeptao;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The server's side of FedPepTAO's Algorithm 2 over the selected layers, as run_fed_pers_with_optim_v2.py computes
 * it (spec B.4.2), with the paper's readings as options ({@link PepTaoConfig}): FedAvg of the devices' prefixes
 * weighted by their rows, SCAFFOLD-style control variates (c_i on the server, c_g from their changes), and from the
 * second round on a momentum step on every sampled device's copy, averaged. Uploads arrive sorted by device id, and
 * every sum runs in that order, in double.
 */
final class ServerStep {
    private ServerStep() {}

    /** The selected layers' new global values and the server's new bookkeeping. */
    record Next(double[] global, double[] cg, double[] m, double[] deltaPrev, double eta,
                SortedMap<Integer, double[]> ci) {}

    /**
     * @param old the selected layers' global values the round started from (w_old)
     * @param lr  the devices' AdamW learning rate (the control variate's alpha)
     */
    static Next apply(PepTaoConfig c, double lr, double[] old, double[] cg, double[] m, double[] deltaPrev,
                      double eta, SortedMap<Integer, double[]> ci, List<PepTaoUpload> uploads) {
        int size = old.length;
        double rows = 0;
        for (PepTaoUpload u : uploads) rows += u.sampleCount();
        double[] avg = new double[size];
        for (PepTaoUpload u : uploads) {
            double w = u.sampleCount() / rows;
            float[] wi = u.selected();
            for (int j = 0; j < size; j++) avg[j] += w * wi[j];
        }
        double[] delta = new double[size];
        for (int j = 0; j < size; j++) {
            delta[j] = c.signs() == PepTaoConfig.Sign.CODE ? old[j] - avg[j] : avg[j] - old[j];
        }

        // Control variates: c_i' = c_i - c_g + (w_old - W_i) / (K_i lr); c_g += |S|/M * weighted mean of the changes.
        SortedMap<Integer, double[]> nextCi = new TreeMap<>(ci);
        double[] weightedChange = new double[size];
        double weights = 0;
        for (PepTaoUpload u : uploads) {
            double[] before = ci.getOrDefault(u.clientId(), new double[size]);
            double[] after = new double[size];
            double scale = 1.0 / (u.steps() * lr);
            float[] wi = u.selected();
            for (int j = 0; j < size; j++) after[j] = before[j] - cg[j] + (old[j] - wi[j]) * scale;
            double weight = c.controlWeights() == PepTaoConfig.ControlWeights.STEPS ? u.steps() : u.sampleCount();
            for (int j = 0; j < size; j++) weightedChange[j] += weight * (after[j] - before[j]);
            weights += weight;
            nextCi.put(u.clientId(), after);
        }
        double share = (double) uploads.size() / c.clients();
        double[] nextCg = cg.clone();
        for (int j = 0; j < size; j++) nextCg[j] += share * weightedChange[j] / weights;

        if (deltaPrev == null) {
            // The code's first round: FedAvg alone, Delta remembered for the next round's g_g.
            return new Next(avg, nextCg, m, delta, eta, nextCi);
        }
        double nextEta = Math.max(c.serverLrDecay() * eta, c.serverLrFloor());
        double[] base = c.base() == PepTaoConfig.Base.AVERAGE ? avg : old;
        double[] gg = new double[size];
        for (int j = 0; j < size; j++) gg[j] = deltaPrev[j] - delta[j];
        double[] global = new double[size];
        double[] nextM = new double[size];
        double beta = c.momentum();
        boolean chained = c.deviceSteps() == PepTaoConfig.DeviceSteps.CHAINED;
        // Chained, as the code runs it: Fsgdm writes each device's momentum into the shared global_v and steps the
        // live prefix that original_w aliases, so device k starts from device k-1's weights and momentum.
        double[] w = base.clone();
        double[] v = m.clone();
        for (PepTaoUpload u : uploads) {
            double p = u.sampleCount() / rows;
            double[] own = nextCi.get(u.clientId());
            for (int j = 0; j < size; j++) {
                double from = chained ? w[j] : base[j];
                double momentum = chained ? v[j] : m[j];
                double mi = beta * momentum + (1 - beta) * gg[j] + nextCg[j] - own[j];
                double wi = from - nextEta * mi;
                if (chained) {
                    v[j] = mi;
                    w[j] = wi;
                }
                global[j] += p * wi;
                nextM[j] += p * mi;
            }
        }
        return new Next(global, nextCg, nextM, delta, nextEta, nextCi);
    }
}
