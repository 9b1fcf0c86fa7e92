package dev.fedbpt.cli.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fedbpt.config.RunFields;
import dev.fedbpt.config.RunLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What one run folder of the chaos grid shows after its run: read from {@code result.json} when the run finished,
 * else summed over {@code metrics.jsonl} (the rounds it completed before it stopped).
 *
 * @param hash        the global mean's SHA-256 after the last completed round (null before any round)
 * @param stopped     why the run ended before its last round, null when it finished
 * @param meanRoundMs mean wall time of a completed round (0 without rounds)
 */
public record RunRecord(boolean finished, int roundsCompleted, int roundsResampled, long faultsInjected,
                        long resultsRejected, long resultsLate, String hash, String stopped, double wallSeconds,
                        int kills, double meanRoundMs) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Whether the run stopped because a round reached no quorum in its attempts: a legitimate outcome. */
    public boolean stoppedForQuorum() {
        return stopped != null && stopped.contains("reached no quorum");
    }

    static RunRecord read(Path directory, String stopped, double wallSeconds, int kills) {
        try {
            int rounds = 0;
            int resampled = 0;
            long faults = 0;
            long rejected = 0;
            long late = 0;
            long wallMs = 0;
            String hash = null;
            Path metrics = RunLayout.metrics(directory);
            if (Files.isRegularFile(metrics)) {
                for (String line : Files.readAllLines(metrics, StandardCharsets.UTF_8)) {
                    if (line.isBlank()) {
                        continue;
                    }
                    JsonNode round = JSON.readTree(line);
                    rounds++;
                    resampled += round.path(RunFields.ATTEMPTS).asInt(1) - 1;
                    faults += round.path(RunFields.FAULTS_INJECTED).asLong();
                    rejected += round.path(RunFields.RESULTS_REJECTED).asLong();
                    late += round.path(RunFields.RESULTS_LATE).asLong();
                    wallMs += round.path(RunFields.WALL_MS).asLong();
                    hash = round.path(RunFields.GLOBAL_MEAN_SHA256).asText(null);
                }
            }
            double meanRoundMs = rounds == 0 ? 0 : (double) wallMs / rounds;
            Path resultFile = RunLayout.result(directory);
            if (Files.isRegularFile(resultFile)) {
                JsonNode result = JSON.readTree(Files.readString(resultFile, StandardCharsets.UTF_8));
                return new RunRecord(true, result.path(RunFields.ROUNDS_COMPLETED).asInt(),
                        result.path(RunFields.ROUNDS_RESAMPLED).asInt(),
                        result.path(RunFields.FAULTS_INJECTED).asLong(),
                        result.path(RunFields.RESULTS_REJECTED).asLong(), result.path(RunFields.RESULTS_LATE).asLong(),
                        result.path(RunFields.GLOBAL_MEAN_SHA256).asText(null), null, wallSeconds, kills, meanRoundMs);
            }
            return new RunRecord(false, rounds, resampled, faults, rejected, late, hash,
                    stopped != null ? stopped : "the run ended without a result", wallSeconds, kills, meanRoundMs);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the outputs of " + directory, e);
        }
    }
}
