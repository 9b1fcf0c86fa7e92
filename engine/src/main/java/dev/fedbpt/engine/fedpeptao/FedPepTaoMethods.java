package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.gradient.GradientMethods;
import dev.fedbpt.engine.method.MethodEntry;
import dev.fedbpt.engine.method.MethodTraits;
import java.util.List;

/**
 * This package's entry in the method registry: "fedpeptao" (settings {@code fedpeptao.*} and the gradient
 * baselines' {@code gradient.*}), white-box and personalised.
 */
public final class FedPepTaoMethods {
    private FedPepTaoMethods() {}

    public static List<MethodEntry> entries() {
        return List.of(new MethodEntry("fedpeptao", new MethodTraits(true, false, false, true, true),
                GradientMethods::needs, c -> new PepTaoMethod(PepTaoConfig.from(c.settings()), c)));
    }
}
