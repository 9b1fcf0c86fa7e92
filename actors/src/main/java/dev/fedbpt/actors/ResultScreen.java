package dev.fedbpt.actors;

import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.RoundNumbers;
import dev.fedbpt.engine.method.Upload;
import dev.fedbpt.persistence.OpenRound;
import dev.fedbpt.persistence.ServerState;

/**
 * Decides what the server does with a client's result before anything is journalled: accept it, ignore it as late
 * (an answer to a round or round attempt that already closed: expected of slow clients), or reject it (it must
 * never touch the global state). Pure, so every rule is unit-tested without actors.
 */
final class ResultScreen {
    enum Kind { ACCEPT, LATE, REJECT }

    record Verdict(Kind kind, String reason) {
        static final Verdict ACCEPT = new Verdict(Kind.ACCEPT, null);
    }

    private ResultScreen() {}

    /**
     * {@code attempt}: the round attempt the client answered (1-based); engine rounds count completed rounds. The
     * method screens what only it can judge (shapes, non-finite numbers in its upload).
     */
    static Verdict screen(ServerState state, Upload result, int attempt, FederatedMethod method) {
        int round = RoundNumbers.number(result.round());
        OpenRound open = state.open();
        if (round <= state.roundsCompleted() || (open != null && round == open.round() && attempt < open.attempt())) {
            return new Verdict(Kind.LATE, "round " + round + " attempt " + attempt + " already closed");
        }
        if (open == null || round != open.round() || attempt != open.attempt()) {
            return reject("no such round attempt is open (round " + round + " attempt " + attempt + ")");
        }
        if (!open.isSampled(result.clientId())) {
            return reject("client " + result.clientId() + " was not sampled this round");
        }
        if (open.wasDropped(result.clientId())) { // e.g. at the deadline, just before this answer came
            return new Verdict(Kind.LATE, "client " + result.clientId() + " was dropped from round " + round
                    + " attempt " + attempt + " before its answer came");
        }
        if (open.hasAnswered(result.clientId())) {
            return reject("duplicate: client " + result.clientId() + " already answered");
        }
        if (!Double.isFinite(result.loss())) {
            return reject("non-finite loss " + result.loss());
        }
        String refusal = method.screen(state.global(), result);
        return refusal == null ? Verdict.ACCEPT : reject(refusal);
    }

    private static Verdict reject(String reason) {
        return new Verdict(Kind.REJECT, reason);
    }
}
