package dev.fedbpt.cli.chaos;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One fault setting of the chaos grid. Content faults (client drops, client crashes, score corruption) are part of
 * the experiment: seeded, they change results identically every time. Timing faults (worker crashes, SIGKILL +
 * resume) must never change results. Late answers (client delays beyond the round deadline) make results depend on
 * timing, so no hash equality is expected under them.
 *
 * @param delayRate share of client answers held back, on average {@link #DELAY_MEAN_PER_DEADLINE} round deadlines
 * @param kills     how many times the run is killed with SIGKILL (at seeded moments) and resumed
 */
public record ChaosSetting(double dropRate, double crashRate, double corruptionRate, double workerCrashRate,
                           double delayRate, int kills) {
    /** Mean delay of a held-back answer, in round deadlines: about half of the delayed answers come late. */
    public static final double DELAY_MEAN_PER_DEADLINE = 1.5;

    public ChaosSetting {
        for (double rate : new double[] {dropRate, crashRate, corruptionRate, workerCrashRate, delayRate}) {
            if (!(rate >= 0 && rate <= 1)) {
                throw new IllegalArgumentException("fault rates lie in [0, 1]: " + rate);
            }
        }
        if (kills < 0) {
            throw new IllegalArgumentException("kills >= 0: " + kills);
        }
    }

    public static final ChaosSetting NONE = new ChaosSetting(0, 0, 0, 0, 0, 0);

    public ChaosSetting withDrop(double rate) {
        return new ChaosSetting(rate, crashRate, corruptionRate, workerCrashRate, delayRate, kills);
    }

    public ChaosSetting withClientCrash(double rate) {
        return new ChaosSetting(dropRate, rate, corruptionRate, workerCrashRate, delayRate, kills);
    }

    public ChaosSetting withScoreCorruption(double rate) {
        return new ChaosSetting(dropRate, crashRate, rate, workerCrashRate, delayRate, kills);
    }

    public ChaosSetting withWorkerCrash(double rate) {
        return new ChaosSetting(dropRate, crashRate, corruptionRate, rate, delayRate, kills);
    }

    public ChaosSetting withDelay(double rate) {
        return new ChaosSetting(dropRate, crashRate, corruptionRate, workerCrashRate, rate, kills);
    }

    public ChaosSetting withKills(int count) {
        return new ChaosSetting(dropRate, crashRate, corruptionRate, workerCrashRate, delayRate, count);
    }

    /**
     * The fault-free-equivalent run: the same content faults, without worker crashes, kills and delays, run
     * uninterrupted.
     */
    public ChaosSetting reference() {
        return new ChaosSetting(dropRate, crashRate, corruptionRate, 0, 0, 0);
    }

    /** Whether the final hash must equal the reference's: unless answers may come late. */
    public boolean hashExpectedEqual() {
        return delayRate == 0;
    }

    /** A readable name, e.g. "drop 25% + worker crash 20% + kill x2"; "none" without faults. */
    public String name() {
        List<String> parts = new ArrayList<>();
        if (dropRate > 0) {
            parts.add("drop " + percent(dropRate));
        }
        if (crashRate > 0) {
            parts.add("client crash " + percent(crashRate));
        }
        if (corruptionRate > 0) {
            parts.add("score corruption " + percent(corruptionRate));
        }
        if (workerCrashRate > 0) {
            parts.add("worker crash " + percent(workerCrashRate));
        }
        if (kills > 0) {
            parts.add("kill x" + kills);
        }
        if (delayRate > 0) {
            parts.add("late answers " + percent(delayRate));
        }
        return parts.isEmpty() ? "none" : String.join(" + ", parts);
    }

    /** A folder name: the name in lower case, letters, digits and dashes only. */
    public String slug() {
        return name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    /**
     * The {@code faults.*} overrides of this setting; every rate is set, so a setting never inherits faults from the
     * experiment file. The delay mean is set only when there are delays, so that equal content faults give equal
     * configurations.
     */
    public List<String> overrides(Duration roundDeadline) {
        List<String> overrides = new ArrayList<>(List.of(
                "faults.client-drop-rate=" + plain(dropRate),
                "faults.client-crash-rate=" + plain(crashRate),
                "faults.score-corruption-rate=" + plain(corruptionRate),
                "faults.worker-crash-rate=" + plain(workerCrashRate),
                "faults.client-delay-rate=" + plain(delayRate)));
        if (delayRate > 0) {
            long meanMs = Math.max(1, Math.round(roundDeadline.toMillis() * DELAY_MEAN_PER_DEADLINE));
            overrides.add("faults.client-delay-mean=" + meanMs + "ms");
        }
        return overrides;
    }

    private static String percent(double rate) {
        return plain(rate * 100) + "%";
    }

    private static String plain(double value) {
        return new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
    }
}
