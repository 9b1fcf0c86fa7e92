package dev.fedbpt.cli;

import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.config.RunLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "resume", mixinStandardHelpOptions = true,
        description = "Continue a stopped or killed run at its first unfinished round; on a finished run, print its result.")
final class ResumeCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", description = "The run folder.")
    Path directory;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = {
            "Change an execution setting for the rest of the run (repeatable): pool.* or model.intra-op-threads, "
                    + "e.g. --set pool.workers=2 --set model.intra-op-threads=1.",
            "They do not change results; every other setting is the run's own and cannot change."})
    List<String> overrides = new ArrayList<>();

    @Mixin
    VerboseOption logging;

    @Override
    public Integer call() throws java.io.IOException {
        logging.apply();
        Path stored = RunLayout.requireConfig(directory);
        for (String override : overrides) {
            String key = ConfigLoader.overrideKey(override);
            if (!ExperimentConfig.isExecutionKey(key)) {
                throw new ConfigError("fedbpt." + key, "resume --set changes execution settings only ("
                        + String.join(".*, ", ExperimentConfig.EXECUTION_KEYS) + "); the run's other settings "
                        + "are fixed by " + stored + ": start a new run to change them");
            }
        }
        ExperimentConfig experiment = ConfigLoader.loadRunFolder(stored, overrides);
        Path result = RunLayout.result(directory);
        if (Files.isRegularFile(result)) {
            System.out.println("fedbpt: " + directory + " is finished; its result:");
            System.out.println(Files.readString(result).strip());
            return Main.OK;
        }
        return Runs.execute(experiment, directory);
    }
}
