package dev.fedbpt.actors;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.config.RunFields;
import dev.fedbpt.config.RunLayout;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.persistence.Confusion;
import dev.fedbpt.persistence.JournalCheckpoint;
import dev.fedbpt.persistence.RoundIncidents;
import dev.fedbpt.persistence.RoundSummary;
import dev.fedbpt.persistence.ServerState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a run folder's {@code metrics.jsonl} (one object per completed round) and {@code result.json}, and prints
 * one progress line per round. Files are replaced atomically, so a kill never leaves half a file; after recovery the
 * metrics are rewritten from the journal, which is the single source of truth.
 */
public final class RunOutputs implements RunListener {
    private static final Logger LOG = LoggerFactory.getLogger(RunOutputs.class);
    private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT);
    /** A test evaluation's progress is printed once it has run this long since it began or since its last line. */
    private static final Duration EVALUATION_LINE_EVERY = Duration.ofSeconds(30);

    private final Path directory;
    private final ExperimentConfig config;
    private final FederatedMethod method;
    private final String experimentHash;
    private final Consumer<String> progress;
    private final TimeLeft timeLeft;
    private long lastCheckpointNanos = System.nanoTime();
    private int evaluationRound = -1;
    private Duration evaluationLineAt = Duration.ZERO;
    private volatile ServerState finalState;
    private volatile String failure;
    private volatile boolean refused;

    /**
     * @param method         the run's method (the instance its server runs), read for the final state's metrics and
     *                       prompt fingerprint
     * @param experimentHash the SHA-256 of the run folder's config.conf, which its journal records
     */
    public RunOutputs(Path directory, ExperimentConfig config, FederatedMethod method, String experimentHash,
                      Consumer<String> progress) {
        this.directory = directory;
        this.config = config;
        this.method = method;
        this.experimentHash = experimentHash;
        this.progress = progress;
        this.timeLeft = new TimeLeft(config.experiment().rounds(), config.experiment()::evaluatesAfter);
    }

    public Path metricsFile() {
        return RunLayout.metrics(directory);
    }

    public Path resultFile() {
        return RunLayout.result(directory);
    }

    /** The final state when the run finished, else null. */
    public ServerState finalState() {
        return finalState;
    }

    /** Why the run stopped early, else null. */
    public String failure() {
        return failure;
    }

    /** Whether the run stopped because its folder or input is unusable (a user error, not a crash). */
    public boolean refused() {
        return refused;
    }

    @Override
    public void onRecovered(ServerState state, List<RoundSummary> finalRounds) {
        StringBuilder lines = new StringBuilder();
        for (RoundSummary summary : finalRounds) {
            lines.append(metricsLine(summary)).append('\n');
        }
        writeAtomically(metricsFile(), lines.toString());
        timeLeft.start(state.roundsCompleted());
        if (state.started() && !state.finished()) {
            progress.accept(String.format(Locale.ROOT, "resuming after round %d of %d", state.roundsCompleted(),
                    config.experiment().rounds()));
        }
    }

    @Override
    public void onZeroShot(double accuracy, Map<String, Double> taskMetrics, Confusion confusion) {
        timeLeft.start(0);
        progress.accept((config.experiment().traits().demonstrations()
                ? String.format(Locale.ROOT, "in-context accuracy %.4f (demonstrations, no prompt)", accuracy)
                : String.format(Locale.ROOT, "zero-shot accuracy %.4f (no prompt)", accuracy))
                + taskMetricsNote(taskMetrics) + oneClassNote(confusion));
    }

    @Override
    public void onEvaluationProgress(Evaluator.Progress progress) {
        if (progress.round() != evaluationRound) {
            evaluationRound = progress.round();
            evaluationLineAt = Duration.ZERO;
        }
        if (progress.elapsed().minus(evaluationLineAt).compareTo(EVALUATION_LINE_EVERY) < 0) {
            return;
        }
        evaluationLineAt = progress.elapsed();
        String which = progress.round() > 0 ? "evaluation after round " + progress.round()
                : config.experiment().traits().demonstrations() ? "in-context evaluation"
                : "zero-shot evaluation";
        long leftMs = progress.elapsed().toMillis() * (progress.totalRows() - progress.scoredRows())
                / progress.scoredRows();
        this.progress.accept(String.format(Locale.ROOT, "%s: %d of %d %s rows scored, about %s left", which,
                progress.scoredRows(), progress.totalRows(), config.data().evaluatedOn(), TimeLeft.format(leftMs)));
    }

    @Override
    public void onRoundCompleted(RoundSummary summary, ServerState state) {
        append(metricsFile(), metricsLine(summary) + "\n");
        checkpointIfDue(summary.round());
        StringBuilder metrics = new StringBuilder();
        summary.metrics().forEach((name, value) -> metrics.append("  ").append(name).append(' ')
                .append(value == Math.rint(value) && Math.abs(value) < 1e15 ? String.valueOf(value.longValue())
                        : String.format(Locale.ROOT, "%.4f", value)));
        int rounds = config.experiment().traits().federatedRounds(config.experiment().rounds());
        String round = summary.round() > rounds ? "personalisation" // a personalised method's round after the rest
                : String.format(Locale.ROOT, "round %3d/%d", summary.round(), rounds);
        progress.accept(String.format(Locale.ROOT,
                "%s  clients %d/%d  %s%s  %s  %d rows  %.1f s%s%s",
                round, summary.reported(), summary.sampled(),
                lossNote(summary), metrics,
                summary.testAccuracy() == null ? "" : String.format(Locale.ROOT, "%s acc %.4f",
                        config.data().evaluatedOn(), summary.testAccuracy()) + taskMetricsNote(summary.testMetrics())
                        + oneClassNote(summary.testConfusion()),
                summary.forwardRows(), summary.wallMs() / 1000.0,
                timeLeft.afterRound(summary.round()), incidentNote(summary)));
    }

    /**
     * Dumps the journal into the run folder's checkpoint once {@code persistence.checkpoint-every} has passed since
     * the last one. It runs in the server's handler, after the round's events are stored, so the checkpoint holds
     * whole rounds (the server waits for the dump; its time was not measured apart from the round's). A failed dump
     * is reported and the run goes on: the journal is intact.
     */
    private void checkpointIfDue(int round) {
        long now = System.nanoTime();
        if (now - lastCheckpointNanos < config.persistence().checkpointEvery().toNanos()) {
            return;
        }
        lastCheckpointNanos = now;
        try {
            long bytes = JournalCheckpoint.write(directory);
            LOG.info("checkpoint after round {}: {} ({} kB)", round, JournalCheckpoint.file(directory),
                    (bytes + 512) / 1024);
        } catch (RuntimeException e) {
            progress.accept("checkpoint after round " + round + " not written (" + e.getMessage()
                    + "); the journal is intact");
        }
    }

    /**
     * The clients' mean loss, or "loss -" for a round without one: no upload, or uploads that all carry a loss of
     * exactly 0, which is how an upload without a loss passes the loss screen (Fed-BBPT's counts round); a
     * cross-entropy of finite scores is never exactly 0.
     */
    static String lossNote(RoundSummary summary) {
        double loss = summary.meanClientLoss();
        boolean none = !Double.isFinite(loss) || summary.clients() != null && !summary.clients().isEmpty()
                && summary.clients().stream().allMatch(c -> c.loss() == 0.0);
        return none ? "loss -" : String.format(Locale.ROOT, "loss %.4f", loss);
    }

    private static String taskMetricsNote(Map<String, Double> taskMetrics) {
        StringBuilder note = new StringBuilder();
        taskMetrics.forEach((name, value) -> note.append(String.format(Locale.ROOT, " %s %.4f", name, value)));
        return note.toString();
    }

    /** Says so when a prompt predicted every row as one class: its accuracy is then that class's share. */
    private String oneClassNote(Confusion confusion) {
        int only = confusion.onlyPredictedClass();
        return only < 0 ? "" : " (every row predicted '" + config.task().labelNames().get(only) + "')";
    }

    private static String incidentNote(RoundSummary summary) {
        RoundIncidents i = summary.incidents();
        StringBuilder note = new StringBuilder();
        if (summary.attempts() > 1) {
            note.append("  attempts ").append(summary.attempts());
        }
        if (i.faultsInjected() > 0) {
            note.append("  faults ").append(i.faultsInjected());
        }
        if (i.rejectedResults() + i.lateResults() > 0) {
            note.append("  rejected ").append(i.rejectedResults()).append(" late ").append(i.lateResults());
        }
        return note.toString();
    }

    @Override
    public void onFinished(ServerState state) {
        writeAtomically(resultFile(), toJson(result(state)) + "\n");
        JournalCheckpoint.delete(directory);
        finalState = state;
    }

    @Override
    public void onFailed(String reason) {
        failure = reason;
    }

    @Override
    public void onRefused(String reason) {
        refused = true;
        failure = reason;
    }

    /**
     * What result.json calls "final": the last completed round's evaluation (null figures when that round was not
     * evaluated), or the zero-shot evaluation when no round completed.
     */
    private record LastEvaluation(Double accuracy, Map<String, Double> metrics, Confusion confusion) {
        static LastEvaluation of(ServerState state) {
            List<RoundSummary> rounds = state.rounds();
            if (rounds.isEmpty()) {
                return new LastEvaluation(state.zeroShotAccuracy(), state.zeroShotMetrics(),
                        state.zeroShotConfusion());
            }
            RoundSummary last = rounds.get(rounds.size() - 1);
            return new LastEvaluation(last.testAccuracy(), last.testMetrics(), last.testConfusion());
        }
    }

    public Map<String, Object> result(ServerState state) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put(RunFields.EXPERIMENT, config.experiment().name());
        result.put(RunFields.METHOD, config.experiment().method());
        // How the method was set up, as it says (FedBPT: the reading that produced this result, item by item).
        result.putAll(method.resultFields(state.global()));
        result.put(RunFields.SEED, config.experiment().seed());
        result.put(RunFields.PRECISION, ConfigLoader.valueName(config.model().precision()));
        result.put(RunFields.ROUNDS_COMPLETED, state.roundsCompleted());
        boolean icl = config.experiment().traits().demonstrations();
        // An ICL run's round-0 evaluation scores the inputs with their demonstrations: not the zero-shot baseline.
        result.put(RunFields.ZERO_SHOT_ACCURACY, icl ? null : state.zeroShotAccuracy());
        List<RoundSummary> rounds = state.rounds();
        LastEvaluation last = LastEvaluation.of(state);
        result.put(RunFields.FINAL_ACCURACY, last.accuracy());
        // The task's other metrics (F1, MCC) beside accuracy, only for the tasks that report them.
        state.zeroShotMetrics().forEach((name, value) ->
                result.put(RunFields.ZERO_SHOT_PREFIX + name, icl ? null : value));
        last.metrics().forEach((name, value) -> result.put(RunFields.FINAL_PREFIX + name, value));
        // Rows of true class t (outer) predicted as class p (inner), in the task's label order; absent in runs
        // evaluated before it was kept.
        if (state.zeroShotConfusion().recorded() && !icl) {
            result.put(RunFields.ZERO_SHOT_PREFIX + "confusion", state.zeroShotConfusion().counts());
        }
        if (last.confusion().recorded()) {
            result.put(RunFields.FINAL_PREFIX + "confusion", last.confusion().counts());
        }
        result.put(RunFields.EVAL_SPLIT, config.data().evaluatedOn());
        method.metrics(state.global()).forEach((name, value) -> result.put(RunFields.FINAL_PREFIX + name, value));
        // The key predates other kinds of prompt: for FedBPT's methods the prompt is the global mean z.
        result.put(RunFields.GLOBAL_MEAN_SHA256, ServerState.fingerprint(method.evaluationPrompt(state.global())));
        result.put(RunFields.CONFIG_HASH, experimentHash);
        RoundIncidents total = rounds.stream().map(RoundSummary::incidents).reduce(RoundIncidents.NONE,
                RoundIncidents::plus);
        // Per client and round, from the encoded messages: what a sampled client received, what a report sent.
        long sampled = rounds.stream().mapToLong(RoundSummary::sampled).sum();
        long reported = rounds.stream().mapToLong(RoundSummary::reported).sum();
        result.put("bytes_down_per_client_round", sampled == 0 ? null
                : (double) rounds.stream().mapToLong(RoundSummary::bytesDown).sum() / sampled);
        result.put("bytes_up_per_client_round", reported == 0 ? null
                : (double) rounds.stream().mapToLong(RoundSummary::bytesUp).sum() / reported);
        result.put(RunFields.ROUNDS_RESAMPLED, rounds.stream().mapToInt(r -> r.attempts() - 1).sum());
        result.put(RunFields.FAULTS_INJECTED, total.faultsInjected());
        result.put(RunFields.RESULTS_REJECTED, total.rejectedResults());
        result.put(RunFields.RESULTS_LATE, total.lateResults());
        result.put(RunFields.NON_FINITE_SCORES, total.nonFiniteScores());
        return result;
    }

    static String metricsLine(RoundSummary summary) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put(RunFields.ROUND, summary.round());
        line.put(RunFields.ATTEMPTS, summary.attempts());
        line.put(RunFields.SAMPLED, summary.sampled());
        line.put(RunFields.REPORTED, summary.reported());
        line.put(RunFields.DROPPED, summary.dropped());
        line.put(RunFields.MEAN_CLIENT_LOSS, summary.meanClientLoss());
        line.putAll(summary.metrics());
        line.put(RunFields.TEST_ACCURACY, summary.testAccuracy());
        summary.testMetrics().forEach((name, value) -> line.put(RunFields.TEST_METRIC_PREFIX + name, value));
        if (summary.testConfusion().recorded()) {
            line.put(RunFields.TEST_CONFUSION, summary.testConfusion().counts());
        }
        line.put(RunFields.BYTES_UP, summary.bytesUp());
        line.put(RunFields.BYTES_DOWN, summary.bytesDown());
        line.put(RunFields.FORWARD_ROWS, summary.forwardRows());
        line.put(RunFields.WALL_MS, summary.wallMs());
        line.put(RunFields.EVAL_MS, summary.testWallMs()); // null: not evaluated, or a journal from before it was kept
        RoundIncidents incidents = summary.incidents();
        line.put(RunFields.FAULTS_INJECTED, incidents.faultsInjected());
        Map<String, Object> faults = new LinkedHashMap<>();
        faults.put("client_drop", incidents.clientDrops());
        faults.put("client_crash", incidents.clientCrashes());
        faults.put("client_delay", incidents.clientDelays());
        faults.put("worker_crash", incidents.workerCrashes());
        faults.put("score_corruption", incidents.scoreCorruptions());
        line.put(RunFields.FAULTS, faults);
        line.put(RunFields.NON_FINITE_SCORES, incidents.nonFiniteScores());
        line.put(RunFields.RESULTS_REJECTED, incidents.rejectedResults());
        line.put(RunFields.RESULTS_LATE, incidents.lateResults());
        line.put(RunFields.GLOBAL_MEAN_SHA256, summary.promptSha256());
        List<Map<String, Object>> clients = new ArrayList<>();
        for (RoundSummary.ClientUpload upload : summary.clients()) {
            Map<String, Object> client = new LinkedHashMap<>();
            client.put("id", upload.clientId());
            client.put("loss", upload.loss());
            client.put("samples", upload.sampleCount());
            clients.add(client);
        }
        line.put(RunFields.CLIENTS, clients);
        return toJson(line);
    }

    static String toJson(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Writes {@code file} whole or not at all: a reader never sees half of it, even after a crash. */
    public static void writeAtomically(Path file, String text) {
        try {
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(temporary, text, StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
