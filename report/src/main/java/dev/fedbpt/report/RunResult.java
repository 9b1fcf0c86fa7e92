package dev.fedbpt.report;

/**
 * A finished run's {@code result.json}. Baselines without rounds may leave all but {@code finalAccuracy} out, so
 * every field may be null.
 */
public record RunResult(String method, Long seed, Integer roundsCompleted, Double zeroShotAccuracy,
                        Double finalAccuracy, Double finalSigma) {
}
