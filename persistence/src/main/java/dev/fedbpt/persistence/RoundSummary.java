package dev.fedbpt.persistence;

import java.util.Comparator;
import java.util.List;

/**
 * One completed round, as written to metrics.jsonl. {@code testAccuracy} is null when the round was not evaluated.
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
        double sigma,
        Double testAccuracy,
        long bytesUp,
        long bytesDown,
        long forwardRows,
        long wallMs,
        RoundIncidents incidents,
        String globalMeanSha256,
        List<ClientUpload> clients) implements CborSerializable {

    /** A client's plain loss on its own data (of its uploaded mean) and how many examples it holds. */
    public record ClientUpload(int clientId, double loss, int sampleCount) implements CborSerializable {}

    public RoundSummary {
        // null when recovered from a snapshot written before the field existed
        clients = clients == null ? List.of()
                : clients.stream().sorted(Comparator.comparingInt(ClientUpload::clientId)).toList();
    }

    public RoundSummary withTestAccuracy(double accuracy) {
        return new RoundSummary(round, attempts, sampled, reported, dropped, meanClientLoss, sigma, accuracy,
                bytesUp, bytesDown, forwardRows, wallMs, incidents, globalMeanSha256, clients);
    }
}
