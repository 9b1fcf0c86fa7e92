package dev.fedbpt.actors;

import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Estimates how long a run has left from the wall-clock time of the rounds this process has completed, evaluations
 * included. Rounds recovered from the journal are left out: they may have run on other hardware or with other
 * execution settings. Display only: nothing the run computes reads it.
 */
final class TimeLeft {
    private final LongSupplier nanoClock;
    private long startNanos;
    private int startRound;
    private boolean started;

    TimeLeft() {
        this(System::nanoTime);
    }

    TimeLeft(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** Rounds are timed from here: after recovery, or after the zero-shot evaluation that precedes round 1. */
    void startAt(int roundsCompleted) {
        startNanos = nanoClock.getAsLong();
        startRound = roundsCompleted;
        started = true;
    }

    /** "  eta 12 min" once {@code round} has completed, or "" when nothing has been timed or nothing is left. */
    String afterRound(int round, int rounds) {
        int timed = round - startRound;
        if (!started || timed <= 0 || round >= rounds) {
            return "";
        }
        double nanosPerRound = (double) (nanoClock.getAsLong() - startNanos) / timed;
        return "  eta " + format(Math.round(nanosPerRound * (rounds - round) / 1e6));
    }

    static String format(long ms) {
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
}
