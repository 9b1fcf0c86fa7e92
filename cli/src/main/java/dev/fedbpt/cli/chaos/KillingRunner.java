package dev.fedbpt.cli.chaos;

import dev.fedbpt.actors.RunFolder;
import dev.fedbpt.cli.Main;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.config.RunLayout;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Runs an experiment in a child JVM ({@code fedbpt resume DIR}), kills it with SIGKILL at seeded random moments and
 * resumes it each time, then lets the last resume run to the end. Kill k of K waits until the child has recovered
 * and completed a round drawn from the k-th K-th of the rounds, then a further random share of a mean round, so every
 * kill lands while the run works. The children's output goes to {@value #LOG} in the run folder.
 */
final class KillingRunner {
    static final String LOG = "chaos-child.log";
    private static final String STOPPED = "fedbpt: run stopped: ";
    private static final long POLL_MS = 5;
    private static final long LAST_RUN_LIMIT_MINUTES = 60;

    private KillingRunner() {}

    /**
     * @param meanRoundMs a round's expected wall time (from the reference run), to spread kills within rounds
     */
    static RunRecord run(ExperimentConfig config, Path directory, int kills, long momentsSeed, double meanRoundMs)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        // `fedbpt resume` starts a run folder that holds only its configuration, and continues it after a kill.
        RunFolder.claim(directory, config);
        Path metrics = RunLayout.metrics(directory);
        int rounds = config.experiment().rounds();
        Random moments = new Random(momentsSeed);
        int landed = 0;
        for (int k = 0; k < kills; k++) {
            int from = k * rounds / kills;
            int to = Math.max(from + 1, (k + 1) * rounds / kills);
            int targetRound = from + moments.nextInt(to - from);
            long extraMs = (long) (moments.nextDouble() * meanRoundMs);
            Object metricsBefore = fileKey(metrics);
            Process child = start(directory);
            while (child.isAlive() && !(recovered(metrics, metricsBefore) && completedRounds(metrics) >= targetRound)) {
                child.waitFor(POLL_MS, TimeUnit.MILLISECONDS);
            }
            if (child.isAlive() && !child.waitFor(extraMs, TimeUnit.MILLISECONDS)) {
                child.destroyForcibly().waitFor(); // SIGKILL on Unix
                if (!Files.exists(RunLayout.result(directory))) {
                    landed++;
                }
                continue;
            }
            // The child ended by itself before its kill: finished, or stopped (which a resume would not undo).
            return RunRecord.read(directory, child.exitValue() == 0 ? null : reason(directory, child.exitValue()),
                    seconds(start), landed);
        }
        Process last = start(directory);
        String stopped = null;
        if (!last.waitFor(LAST_RUN_LIMIT_MINUTES, TimeUnit.MINUTES)) {
            last.destroyForcibly().waitFor();
            stopped = "the resumed run did not finish in " + LAST_RUN_LIMIT_MINUTES + " minutes";
        } else if (last.exitValue() != 0) {
            stopped = reason(directory, last.exitValue());
        }
        return RunRecord.read(directory, stopped, seconds(start), landed);
    }

    private static Process start(Path directory) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("-Xmx") || argument.startsWith("-Xms") || argument.startsWith("-Xss")
                    || argument.startsWith("-Dai.djl.")) {
                command.add(argument);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "resume",
                directory.toString()));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve(LOG).toFile())).start();
    }

    /** Whether the child has recovered its state: recovery rewrites metrics.jsonl (atomically, as a new file). */
    private static boolean recovered(Path metrics, Object keyBefore) throws IOException {
        Object now = fileKey(metrics);
        return now != null && !Objects.equals(now, keyBefore);
    }

    private static Object fileKey(Path file) throws IOException {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return attributes.fileKey() != null ? attributes.fileKey() : attributes.lastModifiedTime();
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }

    private static int completedRounds(Path metrics) throws IOException {
        try {
            byte[] bytes = Files.readAllBytes(metrics);
            int lines = 0;
            for (byte b : bytes) {
                if (b == '\n') {
                    lines++;
                }
            }
            return lines;
        } catch (java.nio.file.NoSuchFileException e) {
            return 0;
        }
    }

    /** The child's reason to stop, from its output: the "run stopped" line, else its last line. */
    private static String reason(Path directory, int exitValue) throws IOException {
        List<String> lines = Files.readAllLines(directory.resolve(LOG), StandardCharsets.UTF_8);
        String last = null;
        for (int i = lines.size() - 1; i >= 0; i--) {
            String line = lines.get(i).strip();
            if (line.startsWith(STOPPED)) {
                return line.substring(STOPPED.length());
            }
            if (last == null && !line.isEmpty()) {
                last = line;
            }
        }
        String text = last == null ? "no output" : last;
        for (String prefix : List.of("fedbpt: ", directory + ": ")) {
            if (text.startsWith(prefix)) {
                text = text.substring(prefix.length());
            }
        }
        return text + " (exit code " + exitValue + "; see " + directory.resolve(LOG) + ")";
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
