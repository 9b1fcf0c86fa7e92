package dev.fedbpt.cli.chaos;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One row of the chaos report: a setting's run (one trial) against its fault-free-equivalent reference.
 *
 * @param rounds       the rounds the experiment asks for
 * @param stopped      why the run ended early (null when it finished)
 * @param hashEqual    the final global mean hashes of the run and its reference are equal (after the same number of
 *                     rounds)
 */
public record ChaosRow(String setting, int trial, long faultsInjected, int roundsCompleted, int rounds,
                       int roundsResampled, long resultsRejected, long resultsLate, int kills,
                       boolean hashExpectedEqual, boolean hashEqual, String stopped, double wallSeconds,
                       boolean referenceFailed) {

    static ChaosRow of(ChaosSetting setting, int trial, int rounds, RunRecord run, RunRecord reference) {
        boolean equal = run.roundsCompleted() == reference.roundsCompleted()
                && Objects.equals(run.hash(), reference.hash());
        boolean referenceFailed = reference.stopped() != null && !reference.stoppedForQuorum();
        return new ChaosRow(setting.name(), trial, run.faultsInjected(), run.roundsCompleted(), rounds,
                run.roundsResampled(), run.resultsRejected(), run.resultsLate(), run.kills(),
                setting.hashExpectedEqual(), equal, run.stopped(), run.wallSeconds(), referenceFailed);
    }

    /**
     * Why this row fails, or null when it passes: a hash that should equal the reference's does not, or the run (or
     * its reference) ended for another reason than a round without quorum (a legitimate outcome under drops).
     */
    public String failure() {
        if (stopped != null && !stopped.contains("reached no quorum")) {
            return "the run failed: " + stopped;
        }
        if (referenceFailed) {
            return "its reference run failed";
        }
        if (hashExpectedEqual && !hashEqual) {
            return "the final hash differs from the fault-free-equivalent run's";
        }
        return null;
    }

    /** Short form of {@link #stopped} for the table. */
    public String stoppedShort() {
        if (stopped == null) {
            return "-";
        }
        if (stopped.contains("reached no quorum")) {
            return "no quorum in round " + (roundsCompleted + 1);
        }
        String text = stopped;
        for (String end : new String[] {" (", ";", ": "}) {
            int at = text.indexOf(end);
            if (at > 0) {
                text = text.substring(0, at);
            }
        }
        return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }

    /** The row of `fedbpt chaos --json`. */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("setting", setting);
        json.put("trial", trial);
        json.put("faults_injected", faultsInjected);
        json.put("rounds_completed", roundsCompleted);
        json.put("rounds_resampled", roundsResampled);
        json.put("results_rejected", resultsRejected);
        json.put("results_late", resultsLate);
        json.put("kills", kills);
        json.put("hash_expected_equal", hashExpectedEqual);
        json.put("hash_equal", hashEqual);
        json.put("stopped", stopped);
        return json;
    }
}
