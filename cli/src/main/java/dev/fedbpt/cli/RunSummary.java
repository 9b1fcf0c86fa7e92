package dev.fedbpt.cli;

import dev.fedbpt.actors.Counted;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.config.RunFields;
import dev.fedbpt.engine.data.TaskMetric;
import dev.fedbpt.engine.method.MethodTraits;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The lines that close a run on the terminal, from its result.json fields. They say what the method did: a method
 * that runs no rounds (the manual prompt, in-context learning) tuned nothing, so it has an accuracy, not a tuned one;
 * a personalised method adds its clients' own (P) and the held-out clients' (NP) accuracy.
 */
final class RunSummary {
    private RunSummary() {
    }

    /**
     * @param seconds how long this command ran the experiment, or null when the run had finished before it
     *                (a re-opened folder: nothing ran now, so no run time is shown)
     */
    static List<String> lines(ExperimentConfig config, Map<String, Object> result, Double seconds) {
        MethodTraits traits = config.experiment().traits();
        Object zeroShot = result.get(RunFields.ZERO_SHOT_ACCURACY);
        Object last = result.get(RunFields.FINAL_ACCURACY);
        Object rounds = result.get(RunFields.ROUNDS_COMPLETED);
        String how = seconds == null ? "finished before; nothing ran now"
                : String.format(Locale.ROOT, "%.1f s", seconds);
        List<String> out = new ArrayList<>();
        if (!traits.runsRounds()) {
            out.add(String.format(Locale.ROOT, "accuracy %s   (%s, nothing tuned, %s)", format(last),
                    result.get(RunFields.METHOD), how));
        } else {
            out.add(String.format(Locale.ROOT, "zero-shot accuracy %s   tuned accuracy %s   (%s, %s, %s)",
                    format(zeroShot), format(last), result.get(RunFields.METHOD),
                    rounds instanceof Number n ? Counted.of(n.longValue(), "round") : "rounds n/a", how));
            out.add(Runs.verdict(zeroShot, last));
        }
        if (traits.personalised()) {
            out.add("personalised accuracy (P) " + format(result.get(RunFields.FINAL_PREFIX + MethodTraits.P_ACCURACY))
                    + "   held-out clients (NP) "
                    + format(result.get(RunFields.FINAL_PREFIX + MethodTraits.NP_ACCURACY)));
        }
        String tuned = traits.runsRounds() ? "tuned " : "";
        for (TaskMetric metric : config.task().metrics()) {
            if (metric != TaskMetric.ACCURACY) { // the task's other metrics, as the paper reports them
                out.add(String.format(Locale.ROOT, "zero-shot %s %s   %s%s %s", metric.key(),
                        format(result.get(RunFields.ZERO_SHOT_PREFIX + metric.key())), tuned, metric.key(),
                        format(result.get(RunFields.FINAL_PREFIX + metric.key()))));
            }
        }
        return out;
    }

    /** The sweep's one line for a finished cell. */
    static String cellLine(ExperimentConfig config, Map<String, Object> result, double seconds) {
        Object last = result.get(RunFields.FINAL_ACCURACY);
        return config.experiment().traits().runsRounds()
                ? String.format(Locale.ROOT, "zero-shot accuracy %s, tuned accuracy %s (%.1f s)",
                        format(result.get(RunFields.ZERO_SHOT_ACCURACY)), format(last), seconds)
                : String.format(Locale.ROOT, "accuracy %s, nothing tuned (%.1f s)", format(last), seconds);
    }

    static String format(Object accuracy) {
        return accuracy instanceof Double value ? String.format(Locale.ROOT, "%.4f", value) : "n/a";
    }
}
