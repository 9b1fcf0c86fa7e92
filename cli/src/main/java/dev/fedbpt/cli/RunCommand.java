package dev.fedbpt.cli;

import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run an experiment (default: FedBPT tuning the bundled MiniLM on the shipped sentiment sample).")
final class RunCommand implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "Experiment file (HOCON), e.g. experiments/sst2-iid-fedbpt.conf.")
    Path config;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a key, e.g. --set experiment.rounds=5 (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--rounds", paramLabel = "N", description = "Shorthand for --set experiment.rounds=N.")
    Integer rounds;

    @Option(names = "--seed", paramLabel = "S", description = "Shorthand for --set experiment.seed=S.")
    Long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Run folder (default: runs/<time>).")
    Path out;

    @Mixin
    VerboseOption logging;

    @Override
    public Integer call() {
        logging.apply();
        List<String> all = new ArrayList<>(overrides);
        if (rounds != null) {
            all.add("experiment.rounds=" + rounds);
        }
        if (seed != null) {
            all.add("experiment.seed=" + seed);
        }
        ExperimentConfig experiment = ConfigLoader.load(config, all);
        Path directory = out != null ? out
                : Runs.newFolder("");
        return Runs.execute(experiment, directory);
    }
}
