package dev.fedbpt.engine.method;

import java.util.List;

/**
 * What the framework needs to know of a method before building it: whether it tunes in rounds (the baselines that
 * only evaluate do not), whether it runs on one client holding all the training data (a centralised reference), and
 * whether its test inputs carry in-context demonstrations, and whether it is personalised: each client ends with a
 * prompt of its own. A personalised method runs one more round after the experiment's federated rounds, its
 * personalisation round, in which every client takes part, those held out of the federated rounds too
 * ({@link ClientTask#participant()}), and measures itself on its own test rows ({@link ClientTask#test()}). A
 * white-box method asks for gradients ({@link ClientProcedure.ComputeGradient}), which only a model that can train
 * answers (model.backend = pytorch).
 */
public record MethodTraits(boolean runsRounds, boolean singleClient, boolean demonstrations, boolean personalised,
                           boolean whiteBox) {
    /** The metric a personalised method reports for its clients' own prompts on their own test rows (P). */
    public static final String P_ACCURACY = "p_accuracy";
    /** The metric a personalised method reports for the held-out clients (NP). */
    public static final String NP_ACCURACY = "np_accuracy";

    public static final MethodTraits FEDERATED = new MethodTraits(true, false, false, false);
    public static final MethodTraits PERSONALISED = new MethodTraits(true, false, false, true);
    public static final MethodTraits WHITE_BOX = new MethodTraits(true, false, false, false, true);

    public MethodTraits(boolean runsRounds, boolean singleClient, boolean demonstrations, boolean personalised) {
        this(runsRounds, singleClient, demonstrations, personalised, false);
    }

    public MethodTraits(boolean runsRounds, boolean singleClient, boolean demonstrations) {
        this(runsRounds, singleClient, demonstrations, false);
    }

    /** The federated rounds of an experiment configured for {@code rounds}: none for a method that runs none. */
    public int federatedRounds(int rounds) {
        return runsRounds ? rounds : 0;
    }

    /** Every round the server runs: the federated ones, then a personalised method's personalisation round. */
    public int serverRounds(int rounds) {
        return federatedRounds(rounds) + (personalised ? 1 : 0);
    }

    /** The 0-based index of the personalisation round, or -1 for a method that is not personalised. */
    public int personalisationRound(int rounds) {
        return personalised ? federatedRounds(rounds) : -1;
    }

    /**
     * Keys (under {@code fedbpt.}) whose value cannot change this method's run: the client split, for the methods
     * that never split the training data. A sweep computes cells that differ only in these once.
     */
    public List<String> unreadKeys() {
        return singleClient || (!runsRounds && !personalised) ? List.of("data.split", "data.dirichlet-alpha")
                : List.of();
    }
}
