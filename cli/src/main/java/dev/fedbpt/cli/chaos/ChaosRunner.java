package dev.fedbpt.cli.chaos;

import dev.fedbpt.actors.ConfiguredModels;
import dev.fedbpt.actors.ExperimentRunner;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Runs a chaos grid: for every trial (seeds base, base+1, ...) and setting, the setting's run and its
 * fault-free-equivalent reference ({@link ChaosSetting#reference()}, run uninterrupted in this JVM; equal reference
 * configurations run once). Runs without kills run in this JVM, runs with kills in child JVMs
 * ({@link KillingRunner}). Folders: {@code OUT/t<trial>/<setting>} and {@code OUT/t<trial>/reference-<setting>}.
 */
public final class ChaosRunner {
    private final Path experimentFile;
    private final List<String> overrides;
    private final Path out;
    private final Consumer<String> progress;

    /**
     * @param experimentFile the experiment (null: the defaults), {@code overrides} applied after it
     */
    public ChaosRunner(Path experimentFile, List<String> overrides, Path out, Consumer<String> progress) {
        this.experimentFile = experimentFile;
        this.overrides = List.copyOf(overrides);
        this.out = out;
        this.progress = progress;
    }

    private record Job(ChaosSetting setting, int trial, ExperimentConfig config, ExperimentConfig reference) {}

    /** Runs every setting {@code trials} times; every configuration is validated before anything runs. */
    public List<ChaosRow> run(List<ChaosSetting> grid, int trials) {
        List<Job> jobs = plan(grid, trials);
        Set<String> references = new LinkedHashSet<>();
        jobs.forEach(job -> references.add(job.reference().canonicalHash()));
        int total = jobs.size() + references.size();
        Map<String, RunRecord> done = new HashMap<>();
        List<ChaosRow> rows = new ArrayList<>();
        int index = 0;
        for (Job job : jobs) {
            String label = job.setting().name() + " (trial " + job.trial() + ")";
            RunRecord reference = done.get(job.reference().canonicalHash());
            if (reference == null) {
                index++;
                ChaosSetting content = job.setting().reference();
                String name = content.equals(ChaosSetting.NONE) ? "fault-free" : content.name();
                reference = inProcess(job.reference(), folder(job.trial(), "reference-" + slug(name)));
                done.put(job.reference().canonicalHash(), reference);
                report(index, total, "reference " + name + " (trial " + job.trial() + ")", reference);
            }
            index++;
            Path folder = folder(job.trial(), job.setting().slug());
            RunRecord run = job.setting().kills() > 0 ? killing(job, folder, reference) : inProcess(job.config(), folder);
            report(index, total, label, run);
            rows.add(ChaosRow.of(job.setting(), job.trial(), job.config().experiment().rounds(), run, reference));
        }
        return rows;
    }

    private List<Job> plan(List<ChaosSetting> grid, int trials) {
        ExperimentConfig base = ConfigLoader.load(experimentFile, overrides);
        long seed = base.experiment().seed();
        Duration deadline = base.federation().roundDeadline();
        List<Job> jobs = new ArrayList<>();
        for (int trial = 1; trial <= trials; trial++) {
            for (ChaosSetting setting : grid) {
                jobs.add(new Job(setting, trial, load(seed + trial - 1, setting.overrides(deadline)),
                        load(seed + trial - 1, setting.reference().overrides(deadline))));
            }
        }
        return jobs;
    }

    private ExperimentConfig load(long seed, List<String> faults) {
        List<String> all = new ArrayList<>(overrides);
        all.add("experiment.seed=" + seed);
        all.addAll(faults);
        return ConfigLoader.load(experimentFile, all);
    }

    private Path folder(int trial, String name) {
        return out.resolve("t" + trial).resolve(name);
    }

    private static RunRecord inProcess(ExperimentConfig config, Path folder) {
        long start = System.nanoTime();
        ExperimentRunner.Outcome outcome = ExperimentRunner.run(config, folder, new ConfiguredModels(), line -> {});
        return RunRecord.read(folder, outcome.failure(), (System.nanoTime() - start) / 1e9, 0);
    }

    private static RunRecord killing(Job job, Path folder, RunRecord reference) {
        long momentsSeed = job.config().experiment().seed() * 0x9E3779B97F4A7C15L + job.setting().name().hashCode();
        double meanRoundMs = reference.meanRoundMs() > 0 ? reference.meanRoundMs() : 100;
        try {
            return KillingRunner.run(job.config(), folder, job.setting().kills(), momentsSeed, meanRoundMs);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + folder + " in a child JVM", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + folder, e);
        }
    }

    private void report(int index, int total, String label, RunRecord run) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[%2d/%d] %s: %d rounds%s, %d faults, "
                        + "%d re-sampled, %d rejected, %d late", index, total, label, run.roundsCompleted(),
                run.finished() ? "" : " (stopped)", run.faultsInjected(), run.roundsResampled(), run.resultsRejected(),
                run.resultsLate()));
        if (run.kills() > 0) {
            line.append(", ").append(run.kills()).append(" kills");
        }
        line.append(String.format(Locale.ROOT, ", %.1f s", run.wallSeconds()));
        if (run.stopped() != null) {
            line.append("\n        stopped: ").append(run.stopped());
        }
        progress.accept(line.toString());
    }

    private static String slug(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }
}
