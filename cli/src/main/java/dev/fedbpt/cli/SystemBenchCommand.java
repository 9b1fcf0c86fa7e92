package dev.fedbpt.cli;

import dev.fedbpt.actors.ConfiguredModels;
import dev.fedbpt.actors.ExperimentRunner;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.inference.ForwardingScoringModel;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.inference.ScoringModel;
import dev.fedbpt.persistence.RoundSummary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Engine overhead: runs FedBPT rounds with the paper's client counts through the whole actor system, records every
 * batch the inference workers ran, then replays exactly those batches through the inference module alone.
 * system rows/s = client forward rows / round wall time; module rows/s = the same rows / replay time.
 */
@Command(name = "system", mixinStandardHelpOptions = true,
        description = "Forward rows/s through the whole system against the inference module alone on the same batches.")
final class SystemBenchCommand implements Callable<Integer> {
    /** The options, shared with {@code fedbpt bench}, which runs this benchmark when no other is named. */
    static final class Options {
        @Option(names = "--rounds", defaultValue = "1", description = "Rounds to run (default ${DEFAULT-VALUE}).")
        int rounds;

        @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a key of the benchmark's experiment.")
        List<String> overrides = new ArrayList<>();

        @Option(names = "--json", description = "Print one JSON object.")
        boolean json;
    }

    @Mixin
    Options options = new Options();

    SystemBenchCommand() {}

    SystemBenchCommand(Options options) {
        this.options = options;
    }

    @Override
    public Integer call() {
        Logging.configure(false);
        List<String> settings = new ArrayList<>(List.of("experiment.name=bench-system",
                "experiment.rounds=" + options.rounds,
                "experiment.eval-every=1000", "federation.clients=10", "data.shots-per-class=40",
                "data.test-limit=1", "search.local-iterations=8", "search.population=5"));
        settings.addAll(options.overrides);
        ExperimentConfig config = ConfigLoader.load(null, settings);
        Path directory = temporaryDirectory();
        List<List<ScoreRow>> batches = Collections.synchronizedList(new ArrayList<>());
        ConfiguredModels models = new ConfiguredModels();
        ExperimentRunner.Outcome outcome = ExperimentRunner.run(config, directory,
                cfg -> new RecordingModel(models.load(cfg), batches), line -> { if (!options.json) System.out.println("  " + line); });
        if (!outcome.succeeded()) {
            System.err.println("fedbpt: benchmark run failed: " + outcome.failure());
            return Main.FAILURE;
        }
        List<RoundSummary> summaries = outcome.outputs().finalState().rounds();
        long rows = summaries.stream().mapToLong(RoundSummary::forwardRows).sum();
        long wallMs = summaries.stream().mapToLong(RoundSummary::wallMs).sum();
        double systemRowsPerSecond = rows / (wallMs / 1000.0);

        List<List<ScoreRow>> roundBatches = batches.stream().filter(b -> b.get(0).z() != null && b.size() > 1).toList();
        long replayRows = roundBatches.stream().mapToLong(List::size).sum();
        int sessions = config.pool().workers();
        double moduleRowsPerSecond = replayRows / replaySeconds(models, config, roundBatches);
        double ratio = systemRowsPerSecond / moduleRowsPerSecond;
        double paddingShare = paddingShare(roundBatches);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("rounds", options.rounds);
        result.put("clients", config.federation().clients());
        result.put("forward_rows", rows);
        result.put("batches", roundBatches.size());
        result.put("mean_batch_rows", roundBatches.isEmpty() ? 0 : (double) replayRows / roundBatches.size());
        result.put("system_rows_per_s", systemRowsPerSecond);
        result.put("module_sessions", sessions);
        result.put("module_rows_per_s", moduleRowsPerSecond);
        result.put("ratio", ratio);
        result.put("padding_share", paddingShare);
        if (options.json) {
            System.out.println(Json.write(result));
        } else {
            System.out.printf(Locale.ROOT, "system: %d rows in %.1f s = %.1f rows/s (%d batches, %.1f rows each)%n",
                    rows, wallMs / 1000.0, systemRowsPerSecond, roundBatches.size(),
                    (double) replayRows / Math.max(1, roundBatches.size()));
            System.out.printf(Locale.ROOT, "module alone on the same batches (%d session%s, as the pool's workers): %.1f rows/s%n",
                    sessions, sessions == 1 ? "" : "s", moduleRowsPerSecond);
            System.out.printf(Locale.ROOT, "system / module: %.3f%n", ratio);
            System.out.printf(Locale.ROOT, "padding: %.1f%% of the tokens in those batches%n", 100 * paddingShare);
        }
        return Main.OK;
    }

    /**
     * Seconds the inference module alone takes for {@code batches}, with as many sessions, each on its own thread
     * taking the next batch, as the pool had workers: the system is compared with the module at the same
     * parallelism.
     */
    private static double replaySeconds(ConfiguredModels models, ExperimentConfig config,
                                        List<List<ScoreRow>> batches) {
        List<ScoringModel> sessions = models.loadWorkers(config);
        ExecutorService threads = Executors.newFixedThreadPool(sessions.size());
        try {
            AtomicInteger next = new AtomicInteger();
            List<Callable<Void>> replays = sessions.stream().<Callable<Void>>map(model -> () -> {
                for (int b = next.getAndIncrement(); b < batches.size(); b = next.getAndIncrement()) {
                    model.score(batches.get(b));
                }
                return null;
            }).toList();
            long start = System.nanoTime();
            for (Future<Void> replay : threads.invokeAll(replays)) {
                replay.get();
            }
            return (System.nanoTime() - start) / 1e9;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during the replay", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the replay failed: " + e.getCause(), e.getCause());
        } finally {
            threads.shutdownNow();
            sessions.forEach(ScoringModel::close);
        }
    }

    /** Share of the batches' padded token slots (rows x longest row) that hold padding rather than tokens. */
    private static double paddingShare(List<List<ScoreRow>> batches) {
        long slots = 0;
        long tokens = 0;
        for (List<ScoreRow> batch : batches) {
            int longest = 0;
            for (ScoreRow row : batch) {
                longest = Math.max(longest, row.tokenIds().length);
                tokens += row.tokenIds().length;
            }
            slots += (long) longest * batch.size();
        }
        return slots == 0 ? 0 : 1 - (double) tokens / slots;
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("fedbpt-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Passes batches through to the real model and keeps them for the replay. */
    private static final class RecordingModel extends ForwardingScoringModel {
        private final List<List<ScoreRow>> batches;

        RecordingModel(ScoringModel delegate, List<List<ScoreRow>> batches) {
            super(delegate);
            this.batches = batches;
        }

        @Override
        public float[][] score(List<ScoreRow> rows) {
            batches.add(List.copyOf(rows));
            return super.score(rows);
        }
    }
}
