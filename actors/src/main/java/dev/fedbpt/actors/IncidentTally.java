package dev.fedbpt.actors;

import dev.fedbpt.persistence.RoundIncidents;
import org.slf4j.Logger;

/**
 * The incidents of the round that closes next, counted as they happen in whatever phase the server is in: a late or
 * refused answer, or a fault another member reports, that comes between rounds or during an evaluation counts in the
 * next round. A measurement like a round's wall time, never journalled on its own: a round run again after a crash
 * is counted again from zero.
 */
final class IncidentTally {
    private final FaultInjector faults;
    private long nonFiniteScores;
    private long rejectedResults;
    private long lateResults;
    /** Faults other cluster members reported since the last round closed. */
    private RoundIncidents faultsElsewhere = RoundIncidents.NONE;

    IncidentTally(FaultInjector faults) {
        this.faults = faults;
    }

    /** Counts and logs an answer that {@link ResultScreen} did not accept; false when it was accepted. */
    boolean refused(ResultScreen.Verdict verdict, int clientId, Logger log) {
        if (verdict.kind() == ResultScreen.Kind.LATE) {
            lateResults++;
            log.warn("ignored late result of client {}: {}", clientId, verdict.reason());
            return true;
        }
        if (verdict.kind() == ResultScreen.Kind.REJECT) {
            rejectedResults++;
            log.warn("rejected result of client {}: {}", clientId, verdict.reason());
            return true;
        }
        return false;
    }

    /** Candidate evaluations of an accepted answer that came back non-finite, as its client counted them. */
    void nonFiniteScores(long count) {
        nonFiniteScores += count;
    }

    void faultsElsewhere(RoundIncidents counts) {
        faultsElsewhere = faultsElsewhere.plus(counts);
    }

    /**
     * The closing round's incidents, counting from zero again: faults injected (counted by this member's injector,
     * and by other members' as they reported them) plus what the server refused.
     */
    RoundIncidents drain() {
        RoundIncidents server = new RoundIncidents(0, 0, 0, 0, 0, nonFiniteScores, rejectedResults, lateResults);
        nonFiniteScores = 0;
        rejectedResults = 0;
        lateResults = 0;
        RoundIncidents elsewhere = faultsElsewhere;
        faultsElsewhere = RoundIncidents.NONE;
        return faults.drainCounts().plus(elsewhere).plus(server);
    }
}
