package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.MethodEntry;
import dev.fedbpt.engine.method.MethodNeeds;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.MethodTraits;

import java.util.List;

/**
 * This package's entries in the method registry: "dls-ec" (settings {@code dls-ec.*}) and its personalised BBT
 * baselines "bbt" (local only) and "bbt-fed" (FedAvg over z), which read DLS-EC's prompt and post-tuning settings
 * and their own {@code bbt.*}.
 */
public final class DlsEcMethods {
    /** The methods that read {@code dls-ec.*}. */
    static final List<String> NAMES = List.of(DlsEcMethod.NAME, "bbt", "bbt-fed");

    private DlsEcMethods() {}

    public static List<MethodEntry> entries() {
        return List.of(new MethodEntry(DlsEcMethod.NAME, MethodTraits.PERSONALISED, DlsEcMethods::needs,
                        c -> new DlsEcMethod(DlsEcConfig.from(c.settings()), c)),
                new MethodEntry(NAMES.get(1), new MethodTraits(false, false, false, true), DlsEcMethods::needs,
                        c -> bbt(NAMES.get(1), BbtMethod.Mode.LOCAL, c)),
                new MethodEntry(NAMES.get(2), MethodTraits.PERSONALISED, DlsEcMethods::needs,
                        c -> bbt(NAMES.get(2), BbtMethod.Mode.FEDERATED, c)));
    }

    /**
     * The post-tuning z of {@code dls-ec.post-tuning.dimension} (projected here, with DLS-EC's own A, into the
     * embeddings the prompts carry); a crash falls among a client's {@code dls-ec.local-steps}; under
     * {@code dls-ec.post-tuning.rows = held-apart} each client's post-tuning and dev rows.
     */
    private static MethodNeeds needs(MethodSettings s) {
        int perClass = DlsEcConfig.heldApartPerClass(s);
        return new MethodNeeds(DlsEcConfig.postTuningDimension(s), DlsEcConfig.localSteps(s), 0, perClass,
                perClass > 0 ? DlsEcConfig.HELD_APART_KEY : null);
    }

    private static BbtMethod bbt(String name, BbtMethod.Mode mode, MethodContext c) {
        return new BbtMethod(name, mode, DlsEcConfig.from(c.settings()), c.settings().number("bbt.sigma", 1e-12, 1e6),
                c.settings().integer("bbt.budget", 0, Integer.MAX_VALUE), c);
    }
}
