package dev.fedbpt.report;

/**
 * A finished run's {@code result.json}. Baselines without rounds may leave all but {@code finalAccuracy} out, so
 * every field may be null.
 *
 * @param sameRunAs the sweep cell whose run this folder holds a copy of (its method does not read the setting the
 *                  two differ in), or null for a run computed in this folder
 */
public record RunResult(String method, Long seed, Integer roundsCompleted, Double zeroShotAccuracy,
                        Double finalAccuracy, String sameRunAs) {
}
