package dev.fedbpt.engine.method;

/**
 * The one place that converts between the two ways rounds are numbered. Users, the journal's events,
 * metrics.jsonl and progress lines count rounds (and attempts) from 1. The engine indexes a round by the rounds
 * completed before it, from 0: uploads, {@link FederatedMethod#configure}, {@link ClientTask#round()}, client
 * sampling and every random stream's coordinates (so this index is part of every run's bytes).
 */
public final class RoundNumbers {
    private RoundNumbers() {}

    /** The engine's index of round (or attempt) {@code number}, counted from 1. */
    public static int index(int number) {
        if (number < 1) {
            throw new IllegalArgumentException("rounds and attempts are counted from 1, was " + number);
        }
        return number - 1;
    }

    /** The round (or attempt) number, counted from 1, of the engine's {@code index}. */
    public static int number(int index) {
        if (index < 0) {
            throw new IllegalArgumentException("the engine indexes rounds from 0, was " + index);
        }
        return index + 1;
    }
}
