package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.SettingsRules;
import java.util.Map;
import java.util.function.Function;

/**
 * What the stored run folders of DLS-EC and its BBT baselines ran with: one without {@value #ALPHA_SCALE} weighed
 * the LASSO by alpha as printed, and one without {@value #POST_TUNING_ROWS} post-tuned on each client's own
 * training rows and tested the best-loss z (the baselines, which read DLS-EC's settings, are stored alike, so that one
 * sweep pin fits all three). The other keys are checked where the methods read them ({@link DlsEcConfig#from}).
 */
public final class DlsEcSettings implements SettingsRules {
    static final String ALPHA_SCALE = "dls-ec.alpha-scale";
    static final String POST_TUNING_ROWS = "dls-ec.post-tuning.rows";

    @Override
    public Map<String, String> beforeKeysExisted(Function<String, String> stored) {
        if (!DlsEcMethods.NAMES.contains(stored.apply("experiment.method"))) {
            return Map.of();
        }
        return SettingsRules.absent(stored, Map.of(ALPHA_SCALE, "absolute", POST_TUNING_ROWS, "training"));
    }
}
