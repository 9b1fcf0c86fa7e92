package dev.fedbpt.cli;

import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.RunLayout;
import dev.fedbpt.persistence.JournalCheckpoint;
import dev.fedbpt.persistence.JournalSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Writes a stopped run's checkpoint by hand: for a run whose last automatic checkpoint is older than its journal
 * (stopped between two), or one started by a fedbpt that wrote none.
 */
@Command(name = "checkpoint", mixinStandardHelpOptions = true,
        description = {"Dump a stopped run's journal into DIR/" + JournalCheckpoint.FILE + ", a portable copy to "
                + "commit or carry to another machine.",
                "A run folder that has the checkpoint but not its journal resumes from it. Runs write one by "
                        + "themselves (persistence.checkpoint-every)."})
final class CheckpointCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", description = "The run folder (its run must not be running).")
    Path directory;

    @Override
    public Integer call() {
        RunLayout.requireConfig(directory);
        if (Files.isRegularFile(RunLayout.result(directory))) {
            System.out.println("fedbpt: " + directory + " is finished: its result.json and metrics.jsonl are its "
                    + "outcome, no checkpoint is needed");
            return Main.OK;
        }
        if (!Files.isRegularFile(JournalSettings.databaseFile(directory))) {
            throw new ConfigError(null, directory + " has no journal (" + JournalSettings.DATABASE_FILE
                    + "): nothing to checkpoint");
        }
        long bytes = JournalCheckpoint.write(directory);
        System.out.printf(Locale.ROOT, "fedbpt: wrote %s (%d kB)%n", JournalCheckpoint.file(directory),
                (bytes + 512) / 1024);
        return Main.OK;
    }
}
