package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.method.MethodEntry;
import dev.fedbpt.engine.method.MethodNeeds;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.MethodTraits;
import dev.fedbpt.engine.method.Precision;
import java.util.List;
import java.util.Map;

/**
 * This package's entries in the method registry, built from the {@code search} settings (which
 * {@code search.profile} has already resolved to concrete values).
 */
public final class FedBptMethods {
    private FedBptMethods() {}

    public static List<MethodEntry> entries() {
        MethodTraits evaluatesOnly = new MethodTraits(false, false, false);
        return List.of(
                new MethodEntry("fedbpt", MethodTraits.FEDERATED, FedBptMethods::needs,
                        c -> method("fedbpt", fedBptStrategy(c.settings()), c.settings(), true, c.seed())),
                new MethodEntry("fedavg-bbt", MethodTraits.FEDERATED, FedBptMethods::needs,
                        c -> method("fedavg-bbt", fedAvgStrategy(c.settings()), c.settings(), true, c.seed())),
                // Baselines that only evaluate: they run no rounds, so their strategy is never used. zero-shot scores
                // the task's template and label descriptions alone; icl puts demonstrations before each test input.
                new MethodEntry("zero-shot", evaluatesOnly, FedBptMethods::needs, c -> method("zero-shot",
                        new FedAvgBbtStrategy(FedAvgBbtStrategy.Paths.AVERAGE), c.settings(), false, c.seed())),
                new MethodEntry("icl", new MethodTraits(false, false, true), FedBptMethods::needs, c -> method("icl",
                        new FedAvgBbtStrategy(FedAvgBbtStrategy.Paths.AVERAGE), c.settings(), false, c.seed())),
                // Centralised BBT: FedAvg-BBT over a single client hands the client's whole CMA-ES state on, paths
                // included, so the rounds chain into one local search.
                new MethodEntry("centralised-bbt", new MethodTraits(true, true, false), FedBptMethods::needs,
                        c -> method("centralised-bbt",
                        new FedAvgBbtStrategy(FedAvgBbtStrategy.Paths.AVERAGE), c.settings(), true, c.seed())));
    }

    /** z of {@code search.dimension}; a crash falls among a client's CMA-ES iterations. */
    private static MethodNeeds needs(MethodSettings s) {
        return MethodNeeds.blackBox(FedBptSettings.dimension(s), FedBptSettings.localIterations(s));
    }

    private static FedBptMethod method(String name, ServerStrategy strategy, MethodSettings s, boolean rounds,
                                       long seed) {
        // The reading is recorded for the methods that search; the baselines read none of it.
        return new FedBptMethod(name, strategy, clientSearch(s, strategy.needsLocalStates()),
                s.integer("search.dimension"), s.number("search.sigma0"), rounds, seed,
                rounds ? FedBptSettings.reading(s) : Map.of());
    }

    static FedBptStrategy fedBptStrategy(MethodSettings s) {
        return new FedBptStrategy(s.choice("search.step-rule", FedBptStrategy.StepRule.class),
                s.choice("search.server-cmaes", FedBptStrategy.ServerEs.class),
                s.integer("search.population"), s.integer("search.local-iterations"));
    }

    static FedAvgBbtStrategy fedAvgStrategy(MethodSettings s) {
        return new FedAvgBbtStrategy(s.choice("search.fedavg-paths", FedAvgBbtStrategy.Paths.class),
                s.choice("search.fedavg-weights", FedAvgBbtStrategy.Weights.class));
    }

    /** The clients' search; {@code uploadLocalState}: the strategy averages the clients' whole CMA-ES states. */
    public static ClientSearchConfig clientSearch(MethodSettings s, boolean uploadLocalState) {
        return new ClientSearchConfig(s.integer("search.local-iterations"), s.integer("search.population"),
                s.number("search.perturbation-rate"), uploadLocalState,
                s.choice("search.cmaes-variant", ClientSearchConfig.Optimizer.class),
                s.choice("search.uploaded-sigmas", ClientSearchConfig.SigmaList.class),
                s.choice("search.client-start", ClientSearchConfig.Start.class),
                s.choice("search.client-ranking", ClientSearchConfig.Ranking.class),
                s.choice("search.perturbation-mask", ClientSearchConfig.Mask.class),
                s.choice("search.upload-precision", Precision.class));
    }
}
