package dev.fedbpt.cli;

import dev.fedbpt.benchmarks.CmaesBenchmark;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks that print measured numbers.",
        subcommands = {BenchCommand.Cmaes.class, SystemBenchCommand.class, PopulationBenchCommand.class})
final class BenchCommand implements Callable<Integer> {
    /** {@code fedbpt bench [--json] ...} is {@code fedbpt bench system [--json] ...}. */
    @Mixin
    SystemBenchCommand.Options system = new SystemBenchCommand.Options();

    @Override
    public Integer call() {
        return new SystemBenchCommand(system).call();
    }

    @Command(name = "cmaes", mixinStandardHelpOptions = true,
            description = "Function evaluations to reach f < 1e-8: our CMA-ES against Commons Math's CMAESOptimizer (medians over seeds).")
    static final class Cmaes implements Callable<Integer> {
        @Option(names = "--seeds", defaultValue = "5", description = "Seeds per function (default ${DEFAULT-VALUE}).")
        int seeds;

        @Option(names = "--json", description = "Print a JSON list instead of a table.")
        boolean json;

        @Override
        public Integer call() {
            List<CmaesBenchmark.Row> rows = CmaesBenchmark.run(seeds);
            if (json) {
                System.out.println(Json.write(rows.stream().map(row -> {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("function", row.function());
                    out.put("dim", row.dim());
                    out.put("ours_evals", row.oursEvals());
                    out.put("ours_mirrored_active_evals", row.oursMirroredActiveEvals());
                    out.put("commons_math_evals", row.commonsMathEvals());
                    return out;
                }).toList()));
                return Main.OK;
            }
            System.out.printf(Locale.ROOT, "%-12s %4s %14s %22s %18s%n", "function", "dim", "ours tutorial",
                    "ours mirrored-active", "commons-math");
            for (CmaesBenchmark.Row row : rows) {
                System.out.printf(Locale.ROOT, "%-12s %4d %14.0f %22.0f %18.0f%n", row.function(), row.dim(),
                        row.oursEvals(), row.oursMirroredActiveEvals(), row.commonsMathEvals());
            }
            System.out.println("(median function evaluations to reach f < 1e-8 over " + seeds + " seeds; tutorial: "
                    + "Hansen 2016 defaults, as FedBPT runs it; mirrored-active: mirrored sampling and the "
                    + "Hansen-Ros active update)");
            return Main.OK;
        }
    }
}
