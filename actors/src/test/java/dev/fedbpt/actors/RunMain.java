package dev.fedbpt.actors;

import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Child-process entry for the crash tests: runs (or resumes) the small synthetic experiment in a folder. */
public final class RunMain {
    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        List<String> overrides = Arrays.asList(args).subList(1, args.length);
        Path stored = directory.resolve("config.conf");
        ExperimentConfig config = Files.exists(stored) ? ConfigLoader.loadRunFolder(stored, List.of())
                : TestRuns.config(overrides.toArray(String[]::new));
        ExperimentRunner.Outcome outcome = ExperimentRunner.run(config, directory, new ConfiguredModels(),
                System.out::println); // progress goes to the child's log, which the tests read
        if (!outcome.succeeded()) {
            System.out.println("run failed: " + outcome.failure());
        }
        System.exit(outcome.succeeded() ? 0 : 1);
    }
}
