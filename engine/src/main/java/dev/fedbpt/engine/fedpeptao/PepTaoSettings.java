package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.SettingsRules;
import java.util.Map;
import java.util.function.Function;

/**
 * What FedPepTAO's stored run folders ran with: a white-box folder (model.backend = pytorch, where FedPepTAO runs)
 * without {@value #DEVICE_STEPS} stepped every device from the same start, as the paper writes it, and one without
 * {@value #UNSELECTED_LAYERS} scored the global prefix's unselected layers as the server held them. The other keys
 * are checked where the method reads them ({@link PepTaoConfig#from}).
 */
public final class PepTaoSettings implements SettingsRules {
    static final String DEVICE_STEPS = "fedpeptao.device-steps";
    static final String UNSELECTED_LAYERS = "fedpeptao.unselected-layers";

    @Override
    public Map<String, String> beforeKeysExisted(Function<String, String> stored) {
        boolean whiteBox = "pytorch".equals(stored.apply("model.backend"));
        return whiteBox ? SettingsRules.absent(stored, Map.of(DEVICE_STEPS, "independent", UNSELECTED_LAYERS, "start"))
                : Map.of();
    }
}
