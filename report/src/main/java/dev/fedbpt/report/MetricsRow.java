package dev.fedbpt.report;

import java.util.Map;

/**
 * One completed round from a run's {@code metrics.jsonl}. Fields other than {@code round} may be null: absent from
 * the line, or (for {@code testAccuracy}) a round without evaluation.
 *
 * @param metrics what the run's method reported of the round (every number of the line the framework does not write
 *                itself, {@code RunFields.FRAMEWORK_METRICS_KEYS}), by name in the line's order
 */
public record MetricsRow(int round, Double meanClientLoss, Map<String, Double> metrics, Double testAccuracy,
                         Long bytesUp, Long bytesDown) {

    public MetricsRow {
        metrics = metrics == null ? Map.of() : metrics;
    }

    /** Bytes sent both ways in this round, or null when the line records neither direction. */
    public Long bytesTotal() {
        if (bytesUp == null && bytesDown == null) {
            return null;
        }
        return (bytesUp == null ? 0 : bytesUp) + (bytesDown == null ? 0 : bytesDown);
    }
}
