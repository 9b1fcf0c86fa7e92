package dev.fedbpt.actors;

import dev.fedbpt.persistence.ServerState;

/**
 * Where the server stands: the states of {@link ServerActor}'s command handler. A phase is read from the journalled
 * {@link ServerState} alone, never from what is in flight, so a replay after a crash lands in the phase the live
 * run was in, and the next step ({@code Continue}) is the one it would have taken. The phases are tested in the
 * order the server takes its steps (an evaluation that is due comes before the open round, which comes before the
 * next), so every state is in exactly one.
 */
enum ServerPhase {
    /** No start event yet: a fresh run folder. */
    NOT_STARTED,
    /** The journal belongs to another configuration: refused at recovery, and nothing more is journalled. */
    REFUSED,
    /**
     * A test evaluation is due: the zero-shot one before round 1, or the prompt's after a round that evaluates. The
     * journal cannot say whether the evaluator runs (it does from the first {@code Continue} on).
     */
    EVALUATING,
    /** A round attempt is open: its sampled clients train, and the server waits for their answers. */
    ROUND_OPEN,
    /** No round open and no evaluation due, with rounds left: the next one opens. */
    BETWEEN_ROUNDS,
    /** Every round has run and been evaluated: what is left is journalling the finish, once. */
    DONE;

    static ServerPhase of(ServerState state, ServerActor.Settings settings) {
        if (!state.started()) {
            return NOT_STARTED;
        }
        if (!state.configHash().equals(settings.configHash())) {
            return REFUSED;
        }
        if (evaluationDue(state, settings)) {
            return EVALUATING;
        }
        if (state.open() != null) {
            return ROUND_OPEN;
        }
        return state.roundsCompleted() < settings.rounds() ? BETWEEN_ROUNDS : DONE;
    }

    /**
     * The zero-shot evaluation comes before anything else; the one after a round once that round has closed (a
     * round opens only after the zero-shot evaluation, so none is open while it is due).
     */
    private static boolean evaluationDue(ServerState state, ServerActor.Settings settings) {
        if (!state.evaluated(0)) {
            return true;
        }
        int completed = state.roundsCompleted();
        return state.open() == null && completed > 0 && settings.evaluatesAfter(completed)
                && !state.evaluated(completed);
    }
}
