package dev.fedbpt.persistence;

import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One completed round, as written to metrics.jsonl. {@code testAccuracy} is null when the round was not evaluated.
 *
 * @param metrics     what the method reports of the new global state, by name in the method's order
 * @param promptSha256 fingerprint of the prompt that evaluation scores after this round
 * @param testMetrics the task's metrics besides accuracy when the round was evaluated (F1, MCC), else empty
 * @param testConfusion how the evaluated prompt classified the test rows, else empty
 * @param testWallMs  how long that evaluation took, else null (also for rounds evaluated before fedbpt kept it);
 *                    apart from {@code wallMs}, the round's own time
 *
 * @param clients what each reporting client uploaded besides its prompt, by client id: which clients drive the
 *                server (FedBPT's Eq. 6 update takes the half with the lowest loss, each measured on the client's own
 *                data). Empty for rounds recorded before fedbpt kept it.
 */
public record RoundSummary(
        int round,
        int attempts,
        int sampled,
        int reported,
        int dropped,
        double meanClientLoss,
        Map<String, Double> metrics,
        Double testAccuracy,
        long bytesUp,
        long bytesDown,
        long forwardRows,
        long wallMs,
        RoundIncidents incidents,
        String promptSha256,
        List<ClientUpload> clients,
        Map<String, Double> testMetrics,
        Confusion testConfusion,
        Long testWallMs) implements CborSerializable {

    /** A client's plain loss on its own data (of its uploaded mean) and how many examples it holds. */
    public record ClientUpload(int clientId, double loss, int sampleCount) implements CborSerializable {}

    public RoundSummary {
        metrics = ordered(metrics);
        testMetrics = ordered(testMetrics);
        testConfusion = Confusion.orEmpty(testConfusion);
        // null when recovered from a snapshot written before the field existed
        clients = clients == null ? List.of()
                : clients.stream().sorted(Comparator.comparingInt(ClientUpload::clientId)).toList();
    }

    /** @param evaluationWallMs the evaluation's wall time (null when a journal written before it was kept) */
    public RoundSummary withEvaluation(double accuracy, Map<String, Double> taskMetrics, Confusion confusion,
                                       Long evaluationWallMs) {
        return new RoundSummary(round, attempts, sampled, reported, dropped, meanClientLoss, metrics, accuracy,
                bytesUp, bytesDown, forwardRows, wallMs, incidents, promptSha256, clients, taskMetrics, confusion,
                evaluationWallMs);
    }

    /**
     * An unmodifiable copy keeping {@code map}'s order (empty for null): journal bytes follow a map's iteration
     * order, which must not depend on hashing.
     */
    static Map<String, Double> ordered(Map<String, Double> map) {
        return map == null || map.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
