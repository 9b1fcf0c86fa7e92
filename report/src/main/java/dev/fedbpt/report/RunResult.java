package dev.fedbpt.report;

import java.util.Map;

/**
 * A finished run's {@code result.json}. Baselines without rounds may leave all but {@code finalAccuracy} out, so
 * every field may be null.
 *
 * @param finalTaskMetrics the task's other final metrics by key (f1, mcc), for the tasks that report them
 * @param sameRunAs the sweep cell whose run this folder holds a copy of (its method does not read the setting the
 *                  two differ in), or null for a run computed in this folder
 * @param profile   the profile the run's method ran with (FedBPT's paper or reference-code reading), or null for a
 *                  method without one or a run from before result.json recorded it
 */
public record RunResult(String method, Long seed, Integer roundsCompleted, Double zeroShotAccuracy,
                        Double finalAccuracy, String sameRunAs, String profile, Map<String, Double> finalTaskMetrics) {
    public RunResult {
        finalTaskMetrics = finalTaskMetrics == null ? Map.of() : finalTaskMetrics;
    }
}
