package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.MethodEntry;
import dev.fedbpt.engine.method.MethodTraits;
import java.util.List;

/**
 * This package's entries in the method registry: the white-box baselines "fedprompt" and "fedp-tuning" (settings
 * {@code gradient.*}), which need a model that answers gradients (model.backend = pytorch).
 */
public final class GradientMethods {
    private GradientMethods() {}

    public static List<MethodEntry> entries() {
        return List.of(
                new MethodEntry("fedprompt", MethodTraits.WHITE_BOX, c -> new FedAvgPrompt("fedprompt",
                        FedAvgPrompt.Kind.SOFT_PROMPT, GradientConfig.from(c.settings()), c)),
                new MethodEntry("fedp-tuning", MethodTraits.WHITE_BOX, c -> new FedAvgPrompt("fedp-tuning",
                        FedAvgPrompt.Kind.PREFIX, GradientConfig.from(c.settings()), c)));
    }
}
