package dev.fedbpt.persistence;

/** One completed round, as written to metrics.jsonl. {@code testAccuracy} is null when the round was not evaluated. */
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
        String globalMeanSha256) implements CborSerializable {

    public RoundSummary withTestAccuracy(double accuracy) {
        return new RoundSummary(round, attempts, sampled, reported, dropped, meanClientLoss, sigma, accuracy,
                bytesUp, bytesDown, forwardRows, wallMs, incidents, globalMeanSha256);
    }
}
