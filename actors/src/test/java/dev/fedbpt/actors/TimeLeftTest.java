package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TimeLeftTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void projectsTheMeanTimeOfTheRoundsTimedHereOntoTheRoundsLeft() {
        AtomicLong now = new AtomicLong();
        TimeLeft timeLeft = new TimeLeft(now::get);
        timeLeft.startAt(20);
        now.addAndGet(10 * SECOND);
        assertEquals("  eta 5 min", timeLeft.afterRound(21, 50), "29 rounds of 10 s");
        now.addAndGet(30 * SECOND);
        assertEquals("  eta 9 min", timeLeft.afterRound(22, 50), "an evaluation round raises the mean to 20 s");
    }

    @Test
    void saysNothingBeforeARoundIsTimedOrAfterTheLast() {
        AtomicLong now = new AtomicLong();
        TimeLeft timeLeft = new TimeLeft(now::get);
        assertEquals("", timeLeft.afterRound(3, 50), "not started");
        timeLeft.startAt(0);
        now.addAndGet(SECOND);
        assertEquals("", timeLeft.afterRound(50, 50), "nothing left");
    }

    @Test
    void formatsSecondsMinutesAndHours() {
        assertEquals("45 s", TimeLeft.format(45_000));
        assertEquals("2 min", TimeLeft.format(120_000));
        assertEquals("89 min", TimeLeft.format(89 * 60_000));
        assertEquals("1 h 30 min", TimeLeft.format(90 * 60_000));
        assertEquals("12 h 05 min", TimeLeft.format((12 * 60 + 5) * 60_000));
    }
}
