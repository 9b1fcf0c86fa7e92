package dev.fedbpt.actors;

import java.util.Locale;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;

/**
 * Estimates how long a run has left from the wall-clock times of the rounds this process has completed. Rounds that
 * end with a test evaluation are timed apart from the others: on AG News the evaluation scores 7,600 rows beside the
 * round's 12,960, and a resumed run often starts with one, so a single mean over all rounds overestimated until a
 * few plain rounds had diluted it. Rounds recovered from the journal are left out: they may have run on other
 * hardware or with other execution settings. Display only: nothing the run computes reads it.
 */
public final class TimeLeft {
    private final LongSupplier nanoClock;
    private final int rounds;
    private final IntPredicate evaluatesAfter;
    private final Mean plainRounds = new Mean();
    private final Mean evaluatedRounds = new Mean();
    private long lastNanos;
    private boolean started;
    private int untimedThrough;

    /** @param evaluatesAfter whether a round ends with a test evaluation */
    TimeLeft(int rounds, IntPredicate evaluatesAfter) {
        this(rounds, evaluatesAfter, System::nanoTime);
    }

    TimeLeft(int rounds, IntPredicate evaluatesAfter, LongSupplier nanoClock) {
        this.rounds = rounds;
        this.evaluatesAfter = evaluatesAfter;
        this.nanoClock = nanoClock;
    }

    /**
     * The next round is timed from here: after recovery, or after the zero-shot evaluation that precedes round 1.
     *
     * @param roundsDone rounds the journal already holds; a report of one of them (its test evaluation, finished
     *     after a resume) restarts the clock instead of counting as a round's time
     */
    void start(int roundsDone) {
        lastNanos = nanoClock.getAsLong();
        started = true;
        untimedThrough = roundsDone;
    }

    /** Times {@code round}, just completed; returns "  eta 12 min", or "" when nothing is timed or nothing is left. */
    String afterRound(int round) {
        if (!started) {
            return "";
        }
        long now = nanoClock.getAsLong();
        if (round <= untimedThrough) {
            lastNanos = now;
            return "";
        }
        (evaluatesAfter.test(round) ? evaluatedRounds : plainRounds).add(now - lastNanos);
        lastNanos = now;
        if (round >= rounds) {
            return "";
        }
        double nanosLeft = 0;
        for (int r = round + 1; r <= rounds; r++) {
            nanosLeft += evaluatesAfter.test(r) ? evaluatedRounds.orElse(plainRounds) : plainRounds.orElse(evaluatedRounds);
        }
        return "  eta " + format(Math.round(nanosLeft / 1e6));
    }

    /** "45 s", "12 min" or "3 h 05 min". */
    public static String format(long ms) {
        long seconds = Math.round(ms / 1000.0);
        if (seconds < 90) {
            return seconds + " s";
        }
        long minutes = Math.round(seconds / 60.0);
        if (minutes < 90) {
            return minutes + " min";
        }
        return String.format(Locale.ROOT, "%d h %02d min", minutes / 60, minutes % 60);
    }

    /** A mean of round times; one kind stands in for the other until both have been timed. */
    private static final class Mean {
        private long totalNanos;
        private int count;

        void add(long nanos) {
            totalNanos += nanos;
            count++;
        }

        double orElse(Mean other) {
            Mean source = count > 0 ? this : other;
            return (double) source.totalNanos / source.count;
        }
    }
}
