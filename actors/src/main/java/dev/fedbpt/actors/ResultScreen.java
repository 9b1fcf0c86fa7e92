package dev.fedbpt.actors;

import dev.fedbpt.engine.fedbpt.LocalResult;
import dev.fedbpt.persistence.OpenRound;
import dev.fedbpt.persistence.ServerState;
import java.util.Arrays;

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
     * {@code attempt}: the round attempt the client answered (1-based); engine rounds count completed rounds.
     * {@code needsLocalState}: the strategy averages the clients' local CMA-ES states (FedAvg-BBT).
     */
    static Verdict screen(ServerState state, LocalResult result, int attempt, int dimension,
                          boolean needsLocalState) {
        int round = result.round() + 1;
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
        if (result.mean().length != dimension) {
            return reject("mean has dimension " + result.mean().length + ", expected " + dimension);
        }
        if (needsLocalState && result.localState() == null) {
            return reject("no local CMA-ES state, which this method averages");
        }
        if (!Double.isFinite(result.loss()) || !Arrays.stream(result.mean()).allMatch(Double::isFinite)
                || !Arrays.stream(result.sigmas()).allMatch(Double::isFinite)) {
            return reject("non-finite numbers in mean, sigmas or loss");
        }
        return Verdict.ACCEPT;
    }

    private static Verdict reject(String reason) {
        return new Verdict(Kind.REJECT, reason);
    }
}
