package dev.fedbpt.engine.fedbbpt;

import dev.fedbpt.engine.method.MethodEntry;
import dev.fedbpt.engine.method.MethodNeeds;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.MethodTraits;
import java.util.List;

/**
 * This package's entries in the method registry, read from the {@code fed-bbpt.*} settings:
 * <ul>
 *   <li>"fed-bbpt": federated BDPL (Lin et al., App. B.1);</li>
 *   <li>"bdpl": centralised BDPL (Diao et al. 2022), run by the framework with one client holding all training data.
 *       It is the same procedure: one round is one BDPL epoch, the average of one theta is that theta bit for bit,
 *       and BDPL's single AdamW lives across epochs (run_glue_discrete_LM.py:550, created once before the epoch
 *       loop), so its moments always persist whatever {@code fed-bbpt.adam-state} says. BDPL builds its candidate
 *       list offline from the whole training set; here the counts round does it from the one client's rows, which
 *       takes the first round.</li>
 * </ul>
 */
public final class FedBbptMethods {
    /** The methods whose prompts are tokens ({@link dev.fedbpt.engine.method.Prompt.Tokens}). */
    static final List<String> NAMES = List.of("fed-bbpt", "bdpl");

    /**
     * Token prompts carry no z. A round is one pass over the client's batches, as many as its rows make, so the only
     * step every round is sure to have, and the one an injected crash falls on, is the first.
     */
    private static final MethodNeeds NEEDS = MethodNeeds.blackBox(0, 1);

    private FedBbptMethods() {}

    public static List<MethodEntry> entries() {
        return List.of(
                new MethodEntry("fed-bbpt", MethodTraits.FEDERATED, s -> NEEDS,
                        c -> new FedBbptMethod("fed-bbpt", config(c.settings()))),
                new MethodEntry("bdpl", new MethodTraits(true, true, false), s -> NEEDS, c -> new FedBbptMethod("bdpl",
                        config(c.settings()).withAdamState(FedBbptConfig.AdamState.PERSIST))));
    }

    public static FedBbptConfig config(MethodSettings s) {
        return new FedBbptConfig(s.integer("fed-bbpt.prompt-length", 1, 4096),
                s.integer("fed-bbpt.candidates", 1, 1_000_000), s.integer("fed-bbpt.samples", 2, 100_000),
                s.number("fed-bbpt.learning-rate", 0, 1e3), s.number("fed-bbpt.weight-decay", 0, 1e3),
                s.number("fed-bbpt.clip-norm", 1e-12, 1e12), s.integer("fed-bbpt.batch-size", 1, 1_000_000),
                s.integer("fed-bbpt.api-call-budget", 1, Integer.MAX_VALUE),
                s.choice("fed-bbpt.adam-state", FedBbptConfig.AdamState.class),
                s.choice("fed-bbpt.weights", FedBbptConfig.Weights.class),
                s.number("fed-bbpt.pmi-threshold", -1e6, 1e6), s.integer("fed-bbpt.min-count", 0, 1_000_000));
    }
}
