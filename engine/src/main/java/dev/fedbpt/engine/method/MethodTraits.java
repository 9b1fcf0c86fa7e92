package dev.fedbpt.engine.method;

import java.util.List;

/**
 * What the framework needs to know of a method before building it: whether it tunes in rounds (the baselines that
 * only evaluate do not), whether it runs on one client holding all the training data (a centralised reference), and
 * whether its test inputs carry in-context demonstrations, and whether it is personalised: each client ends with a
 * prompt of its own. A personalised method runs one more round after the experiment's federated rounds, its
 * personalisation round, in which every client takes part, those held out of the federated rounds too
 * ({@link ClientTask#participant()}), and measures itself on its own test rows ({@link ClientTask#test()}).
 */
public record MethodTraits(boolean runsRounds, boolean singleClient, boolean demonstrations, boolean personalised) {
    public static final MethodTraits FEDERATED = new MethodTraits(true, false, false, false);
    public static final MethodTraits PERSONALISED = new MethodTraits(true, false, false, true);

    public MethodTraits(boolean runsRounds, boolean singleClient, boolean demonstrations) {
        this(runsRounds, singleClient, demonstrations, false);
    }

    /** Rounds the server runs for {@code federatedRounds} federated ones: one more for a personalised method. */
    public int serverRounds(int federatedRounds) {
        return personalised ? federatedRounds + 1 : federatedRounds;
    }

    /**
     * Keys (under {@code fedbpt.}) whose value cannot change this method's run: the client split, for the methods
     * that never split the training data. A sweep computes cells that differ only in these once.
     */
    public List<String> unreadKeys() {
        return singleClient || !runsRounds ? List.of("data.split", "data.dirichlet-alpha") : List.of();
    }
}
