package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

class TimeLeftTest {
    private static final long SECOND = 1_000_000_000L;
    /** 50 rounds, a test evaluation after every 5th. */
    private static final IntPredicate EVERY_FIFTH = round -> round % 5 == 0;

    @Test
    void projectsPlainAndEvaluatedRoundTimesOntoTheRoundsLeftOfEachKind() {
        AtomicLong now = new AtomicLong();
        TimeLeft timeLeft = startedOn(now);
        now.addAndGet(10 * SECOND);
        assertEquals("  eta 5 min", timeLeft.afterRound(21), "29 rounds at the only time seen, 10 s");
        for (int round = 22; round <= 24; round++) {
            now.addAndGet(10 * SECOND);
            timeLeft.afterRound(round);
        }
        now.addAndGet(30 * SECOND);
        assertEquals("  eta 6 min", timeLeft.afterRound(25), "20 plain rounds of 10 s and 5 evaluated ones of 30 s");
    }

    @Test
    void aResumeThatStartsWithAnEvaluatedRoundIsCorrectedByThePlainRoundAfterIt() {
        AtomicLong now = new AtomicLong();
        TimeLeft timeLeft = startedOn(now);
        now.addAndGet(130 * SECOND);
        assertEquals("  eta 87 min", timeLeft.afterRound(10), "40 rounds at the only time seen, 130 s");
        now.addAndGet(80 * SECOND);
        assertEquals("  eta 59 min", timeLeft.afterRound(11), "31 plain rounds of 80 s and 8 evaluated of 130 s");
    }

    @Test
    void theEvaluationOfARoundTheJournalHeldIsNotTimedAsARound() {
        AtomicLong now = new AtomicLong();
        TimeLeft timeLeft = new TimeLeft(50, EVERY_FIFTH, now::get);
        timeLeft.start(20);
        now.addAndGet(60 * SECOND);
        assertEquals("", timeLeft.afterRound(20), "round 20 ran before the resume; only its evaluation ran now");
        now.addAndGet(80 * SECOND);
        assertEquals("  eta 39 min", timeLeft.afterRound(21), "29 rounds at the only round timed, 80 s");
    }

    /** A run of 50 rounds with an evaluation after every fifth, timed on {@code now} from its current value. */
    private static TimeLeft startedOn(AtomicLong now) {
        TimeLeft timeLeft = new TimeLeft(50, EVERY_FIFTH, now::get);
        timeLeft.start(0);
        return timeLeft;
    }

    @Test
    void saysNothingBeforeARoundIsTimedOrAfterTheLast() {
        AtomicLong now = new AtomicLong();
        TimeLeft timeLeft = new TimeLeft(50, EVERY_FIFTH, now::get);
        assertEquals("", timeLeft.afterRound(3), "not started");
        timeLeft.start(0);
        now.addAndGet(SECOND);
        assertEquals("", timeLeft.afterRound(50), "nothing left");
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
