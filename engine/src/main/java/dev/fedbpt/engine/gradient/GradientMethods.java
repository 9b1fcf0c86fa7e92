package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.MethodEntry;
import dev.fedbpt.engine.method.MethodNeeds;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.MethodTraits;
import java.util.List;

/**
 * This package's entries in the method registry: the white-box baselines "fedprompt" and "fedp-tuning" (settings
 * {@code gradient.*}), which need a model that answers gradients (model.backend = pytorch).
 */
public final class GradientMethods {
    private GradientMethods() {}

    /**
     * No z; the soft prompt or the prefix, whichever is longer, before the rows; a crash falls in one of the
     * {@code gradient.local-epochs} (each has at least one minibatch step).
     */
    public static MethodNeeds needs(MethodSettings s) {
        return new MethodNeeds(0, GradientConfig.localEpochs(s), GradientConfig.promptPositions(s));
    }

    public static List<MethodEntry> entries() {
        return List.of(
                new MethodEntry("fedprompt", MethodTraits.WHITE_BOX, GradientMethods::needs, c -> new FedAvgPrompt("fedprompt",
                        FedAvgPrompt.Kind.SOFT_PROMPT, GradientConfig.from(c.settings()), c)),
                new MethodEntry("fedp-tuning", MethodTraits.WHITE_BOX, GradientMethods::needs, c -> fedPTuning(c)));
    }

    private static FedAvgPrompt fedPTuning(MethodContext c) {
        GradientConfig config = GradientConfig.from(c.settings());
        return new FedAvgPrompt("fedp-tuning", config.fedPTuning() == GradientConfig.FedPTuning.PREFIX
                ? FedAvgPrompt.Kind.PREFIX : FedAvgPrompt.Kind.PROMPT_ENCODER, config, c);
    }
}
