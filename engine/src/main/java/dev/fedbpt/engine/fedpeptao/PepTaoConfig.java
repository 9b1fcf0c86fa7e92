package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.gradient.GradientConfig;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.SettingException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * FedPepTAO's settings ({@code fedpeptao.*} in fedbpt-defaults.conf, each with its source); the prefix and the local
 * AdamW are the gradient baselines' ({@code gradient.*}), which already hold FedPepTAO's code's values.
 *
 * @param selected       the layers whose prefix is federated, ascending (Algorithm 1's SL); null: every layer, or
 *                       (with {@code choose}) Algorithm 1 chooses them
 * @param choose         Algorithm 1 chooses the layers after {@code warmUpRounds} rounds of FedAvg over all of them
 * @param lanczosSteps   Hessian-vector products of each device's stochastic Lanczos run (the code's iter)
 * @param hvpStep        the finite-difference step of a Hessian-vector product, (g(w + h v) - g(w - h v)) / 2h, in
 *                       units of the initial prefix's standard deviation (h = hvpStep x that std)
 * @param clients        M, every device of the federation (the control variate's |S|/M)
 * @param signs          the sign of g_g
 * @param base           what the server's momentum step starts from
 * @param adamState      whether a device's AdamW moments live on across its rounds
 * @param controlWeights how c_g weighs the devices' control-variate changes
 * @param deviceSteps    whether the server's per-device momentum steps chain or start alike
 * @param unselected     how the global prefix is scored on the layers it does not federate
 */
record PepTaoConfig(GradientConfig local, int[] selected, boolean choose, int warmUpRounds, int lanczosSteps,
                    double hvpStep, int clients, double serverLr, double serverLrDecay, double serverLrFloor,
                    double momentum, Sign signs, Base base, AdamState adamState, ControlWeights controlWeights,
                    DeviceSteps deviceSteps, Unselected unselected) {

    /** g_g = Delta_prev - Delta with Delta = w_old - w_avg (the code) or w_avg - w_old (the paper). */
    enum Sign { CODE, PAPER }

    /** w_i' = base - eta m_i: from the round's FedAvg result (the code) or the previous global (the paper). */
    enum Base { AVERAGE, PREVIOUS }

    enum AdamState { PERSIST, RESET }

    /** c_g's weights: each device's local steps K_i (the code) or its rows n_i (the paper's Formula). */
    enum ControlWeights { STEPS, SAMPLES }

    /**
     * The server's per-device steps: chained (the code: device k's step starts from device k-1's result w_{k-1}, its
     * momentum from k-1's v_{k-1}; the first from the base and the previous round's aggregate momentum) or
     * independent (the paper's Algorithm 2: every device from the base and the aggregate momentum).
     */
    enum DeviceSteps { CHAINED, INDEPENDENT }

    /**
     * The global prefix's layers that are not federated, when it is scored: masked (the code's non-personalised
     * evaluation: an additive -10000 on their prefix keys, modeling_roberta.py:216-224) or start (scored as the server
     * holds them, the initial draw).
     */
    enum Unselected { MASKED, START }

    static PepTaoConfig from(MethodSettings s) {
        String layers = s.text("fedpeptao.selected-layers");
        return new PepTaoConfig(GradientConfig.from(s), layers(layers), layers.trim().equals("auto"),
                s.integer("fedpeptao.warm-up-rounds", 1, 100_000),
                s.integer("fedpeptao.lanczos-steps", 2, 10_000),
                s.number("fedpeptao.hvp-step", 1e-12, 1e3),
                s.integer("federation.clients", 1, Integer.MAX_VALUE),
                s.number("fedpeptao.server-lr", 0, 1e3),
                s.number("fedpeptao.server-lr-decay", 0, 1),
                s.number("fedpeptao.server-lr-floor", 0, 1e3),
                s.number("fedpeptao.momentum", 0, 1),
                s.choice("fedpeptao.gg-sign", Sign.class),
                s.choice("fedpeptao.step-base", Base.class),
                s.choice("fedpeptao.adam-state", AdamState.class),
                s.choice("fedpeptao.control-weights", ControlWeights.class),
                s.choice(PepTaoSettings.DEVICE_STEPS, DeviceSteps.class),
                s.choice(PepTaoSettings.UNSELECTED_LAYERS, Unselected.class));
    }

    /** The server step's readings, under their setting keys, as result.json records them. */
    Map<String, String> reading() {
        Map<String, String> items = new LinkedHashMap<>();
        items.put("fedpeptao.gg-sign", value(signs));
        items.put("fedpeptao.step-base", value(base));
        items.put("fedpeptao.adam-state", value(adamState));
        items.put("fedpeptao.control-weights", value(controlWeights));
        items.put("fedpeptao.device-steps", value(deviceSteps));
        items.put(PepTaoSettings.UNSELECTED_LAYERS, value(unselected));
        return items;
    }

    private static String value(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static final String KEY = "fedpeptao.selected-layers";

    /** The selected layers of a model with {@code layers} layers. */
    int[] selected(int layers) {
        if (selected == null) {
            int[] all = new int[layers];
            Arrays.setAll(all, i -> i);
            return all;
        }
        for (int id : selected) {
            if (id >= layers) {
                throw new SettingException(KEY, "layer " + id + " is not one of the model's " + layers
                        + " (0-based)");
            }
        }
        return selected.clone();
    }

    /** "all" or "auto" (null), or layer ids separated by commas (0-based), each once, ascending. */
    static int[] layers(String text) {
        String key = KEY;
        if (text.trim().equals("all") || text.trim().equals("auto")) {
            return null;
        }
        TreeSet<Integer> ids = new TreeSet<>();
        for (String part : text.split(",")) {
            int id;
            try {
                id = Integer.parseInt(part.trim());
            } catch (NumberFormatException e) {
                throw new SettingException(key, "expected \"all\", \"auto\" or layer ids separated by commas, got '"
                        + text + "'");
            }
            if (id < 0) {
                throw new SettingException(key, "layer ids count from 0, got " + id);
            }
            if (!ids.add(id)) {
                throw new SettingException(key, "layer " + id + " is listed twice");
            }
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }
}
