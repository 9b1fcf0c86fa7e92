package dev.fedbpt.cli;

import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import java.nio.file.Files;
import java.nio.file.Path;
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

    @Mixin
    VerboseOption logging;

    @Override
    public Integer call() throws java.io.IOException {
        logging.apply();
        Path stored = directory.resolve("config.conf");
        if (!Files.isRegularFile(stored)) {
            throw new ConfigError(null, directory + " is not a fedbpt run folder (no config.conf)");
        }
        ExperimentConfig experiment = ConfigLoader.load(stored, List.of());
        Path result = directory.resolve("result.json");
        if (Files.isRegularFile(result)) {
            System.out.println("fedbpt: " + directory + " is finished; its result:");
            System.out.println(Files.readString(result).strip());
            return Main.OK;
        }
        return Runs.execute(experiment, directory);
    }
}
