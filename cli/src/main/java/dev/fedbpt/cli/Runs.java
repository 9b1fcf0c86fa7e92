package dev.fedbpt.cli;

import dev.fedbpt.actors.ConfiguredModels;
import dev.fedbpt.actors.ExperimentRunner;
import dev.fedbpt.actors.RunFolder;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.config.RunFields;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/** Runs or resumes an experiment and reports it on the terminal. */
final class Runs {
    private Runs() {}

    /** A new folder under runs/ named by the time, for commands given no --out. */
    static Path newFolder(String prefix) {
        return Path.of("runs", prefix + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }

    static int execute(ExperimentConfig config, Path directory) {
        return execute(config, directory, progress -> ExperimentRunner.run(config, directory, new ConfiguredModels(),
                progress));
    }

    /** Reports the outcome of {@code run}, which gets the progress printer; for a single JVM or a cluster's server. */
    static int execute(ExperimentConfig config, Path directory,
                       Function<Consumer<String>, ExperimentRunner.Outcome> run) {
        System.out.println("fedbpt: experiment '" + config.experiment().name() + "' in " + directory.toAbsolutePath());
        boolean finishedBefore = RunFolder.holdsResult(directory);
        long start = System.nanoTime();
        ExperimentRunner.Outcome outcome = run.apply(line -> System.out.println("  " + line));
        if (outcome.badInput()) {
            System.err.println("fedbpt: " + directory + ": " + outcome.failure());
            return Main.BAD_INPUT;
        }
        if (!outcome.succeeded()) {
            System.err.println("fedbpt: run stopped: " + outcome.failure());
            return Main.FAILURE;
        }
        Map<String, Object> result = outcome.outputs().result(outcome.outputs().finalState());
        System.out.println();
        RunSummary.lines(config, result, finishedBefore ? null : (System.nanoTime() - start) / 1e9)
                .forEach(System.out::println);
        System.out.println("global mean sha256 " + result.get(RunFields.GLOBAL_MEAN_SHA256));
        System.out.println("metrics: " + outcome.outputs().metricsFile() + "   result: " + outcome.outputs().resultFile());
        return Main.OK;
    }

    /** One plain sentence on whether tuning helped, so that nobody has to compare the two numbers by eye. */
    static String verdict(Object zeroShot, Object tuned) {
        if (!(zeroShot instanceof Double z) || !(tuned instanceof Double t)) {
            return "tuning: no comparison (the method has no zero-shot or no final accuracy)";
        }
        double points = (t - z) * 100;
        if (Math.abs(points) < 1e-9) return "tuning left the accuracy where the untuned prompt had it";
        return String.format(Locale.ROOT, points > 0
                ? "tuning raised the accuracy by %.2f points over the untuned prompt"
                : "tuning LOWERED the accuracy by %.2f points: the tuned prompt scores worse than the untuned one",
                Math.abs(points));
    }

}
