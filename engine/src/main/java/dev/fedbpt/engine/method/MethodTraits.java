package dev.fedbpt.engine.method;

import java.util.List;

/**
 * What the framework needs to know of a method before building it: whether it tunes in rounds (the baselines that
 * only evaluate do not), whether it runs on one client holding all the training data (a centralised reference), and
 * whether its test inputs carry in-context demonstrations.
 */
public record MethodTraits(boolean runsRounds, boolean singleClient, boolean demonstrations) {
    public static final MethodTraits FEDERATED = new MethodTraits(true, false, false);

    /**
     * Keys (under {@code fedbpt.}) whose value cannot change this method's run: the client split, for the methods
     * that never split the training data. A sweep computes cells that differ only in these once.
     */
    public List<String> unreadKeys() {
        return singleClient || !runsRounds ? List.of("data.split", "data.dirichlet-alpha") : List.of();
    }
}
