package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.SettingsRules;
import java.util.Map;
import java.util.function.Function;

/**
 * What the stored run folders of DLS-EC and its BBT baselines ran with: one without {@value #ALPHA_SCALE} weighed
 * the LASSO by alpha as printed (the baselines, which read DLS-EC's settings but compress nothing, are stored alike,
 * so that one sweep pin fits all three). The other keys are checked where the methods read them
 * ({@link DlsEcConfig#from}).
 */
public final class DlsEcSettings implements SettingsRules {
    static final String ALPHA_SCALE = "dls-ec.alpha-scale";

    @Override
    public Map<String, String> beforeKeysExisted(Function<String, String> stored) {
        boolean ours = DlsEcMethods.NAMES.contains(stored.apply("experiment.method"));
        return ours && stored.apply(ALPHA_SCALE) == null ? Map.of(ALPHA_SCALE, "absolute") : Map.of();
    }
}
