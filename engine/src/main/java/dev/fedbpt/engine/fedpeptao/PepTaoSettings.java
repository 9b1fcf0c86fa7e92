package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.SettingsRules;
import java.util.Map;
import java.util.function.Function;

/**
 * What FedPepTAO's stored run folders ran with: a white-box folder (model.backend = pytorch, where FedPepTAO runs)
 * without {@value #DEVICE_STEPS} stepped every device from the same start, as the paper writes it. The other keys
 * are checked where the method reads them ({@link PepTaoConfig#from}).
 */
public final class PepTaoSettings implements SettingsRules {
    static final String DEVICE_STEPS = "fedpeptao.device-steps";

    @Override
    public Map<String, String> beforeKeysExisted(Function<String, String> stored) {
        boolean whiteBox = "pytorch".equals(stored.apply("model.backend"));
        return whiteBox && stored.apply(DEVICE_STEPS) == null ? Map.of(DEVICE_STEPS, "independent") : Map.of();
    }
}
