package dev.fedbpt.benchmarks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code fedbpt bench} subcommands of the algorithm benchmarks, which the CLI mounts under {@code bench} without
 * knowing them: {@code bench cmaes}.
 */
public final class BenchCommands {
    private BenchCommands() {}

    /** picocli command objects, each with its own {@code @Command} name. */
    public static List<Object> all() {
        return List.of(new CmaesCommand());
    }

    @Command(name = "cmaes", mixinStandardHelpOptions = true,
            description = "Function evaluations to reach f < 1e-8: our CMA-ES against Commons Math's CMAESOptimizer"
                    + " (medians over seeds).")
    static final class CmaesCommand implements Callable<Integer> {
        @Option(names = "--seeds", defaultValue = "5", description = "Seeds per function (default ${DEFAULT-VALUE}).")
        int seeds;

        @Option(names = "--json", description = "Print a JSON list instead of a table.")
        boolean json;

        @Override
        public Integer call() throws JsonProcessingException {
            List<CmaesBenchmark.Row> rows = CmaesBenchmark.run(seeds);
            if (json) {
                System.out.println(new ObjectMapper().writeValueAsString(rows.stream().map(row -> {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("function", row.function());
                    out.put("dim", row.dim());
                    out.put("ours_evals", row.oursEvals());
                    out.put("ours_mirrored_active_evals", row.oursMirroredActiveEvals());
                    out.put("commons_math_evals", row.commonsMathEvals());
                    return out;
                }).toList()));
                return CommandLine.ExitCode.OK;
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
            return CommandLine.ExitCode.OK;
        }
    }
}
