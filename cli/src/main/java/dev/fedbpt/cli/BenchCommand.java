package dev.fedbpt.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks that print measured numbers.",
        subcommands = {SystemBenchCommand.class, PopulationBenchCommand.class})
final class BenchCommand implements Callable<Integer> {
    /**
     * {@code fedbpt bench [--json] ...} is {@code fedbpt bench system [--json] ...}. The algorithm benchmarks' own
     * subcommands ({@code BenchCommands}) are mounted beside these by {@link Main}.
     */
    @Mixin
    SystemBenchCommand.Options system = new SystemBenchCommand.Options();

    @Override
    public Integer call() {
        return new SystemBenchCommand(system).call();
    }
}
