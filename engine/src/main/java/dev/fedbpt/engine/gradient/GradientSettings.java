package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.SettingsRules;
import java.util.Map;
import java.util.function.Function;

/**
 * What the white-box methods' stored run folders ran with (the gradient baselines' and FedPepTAO's, which read
 * {@code gradient.*} and run only on {@code model.backend = pytorch}): such a folder without {@value #PREFIX_INIT}
 * started its prefix as the nn.Embedding draws it, N(0, gradient.prefix-init-std^2), and one without
 * {@value #FEDP_TUNING} trained fedp-tuning as a P-tuning v2 prefix; every other folder reads the
 * default, which changes nothing it computed. The other keys are checked where the methods read them
 * ({@link GradientConfig#from}).
 */
public final class GradientSettings implements SettingsRules {
    static final String PREFIX_INIT = "gradient.prefix-init";
    static final String FEDP_TUNING = "gradient.fedp-tuning";

    @Override
    public Map<String, String> beforeKeysExisted(Function<String, String> stored) {
        boolean whiteBox = "pytorch".equals(stored.apply("model.backend"));
        return whiteBox ? SettingsRules.absent(stored, Map.of(PREFIX_INIT, "embedding", FEDP_TUNING, "prefix"))
                : Map.of();
    }
}
