package dev.fedbpt.report;

/**
 * One completed round from a run's {@code metrics.jsonl}. Fields other than {@code round} may be null: absent from
 * the line, or (for {@code testAccuracy}) a round without evaluation.
 */
public record MetricsRow(int round, Double meanClientLoss, Double sigma, Double testAccuracy, Long bytesUp,
                         Long bytesDown) {

    /** Bytes sent both ways in this round, or null when the line records neither direction. */
    public Long bytesTotal() {
        if (bytesUp == null && bytesDown == null) {
            return null;
        }
        return (bytesUp == null ? 0 : bytesUp) + (bytesDown == null ? 0 : bytesDown);
    }
}
