package dev.fedbpt.persistence;

/**
 * What went wrong during one round, as observed by the live run: faults injected on purpose (first five) and what
 * the server refused or repaired (last three). Like a round's wall time these are measurements, not state: a round
 * interrupted by a crash is run again and counted again from zero.
 *
 * @param clientDrops      clients that silently never answered (injected)
 * @param clientCrashes    client actors that threw mid-search (injected)
 * @param clientDelays     client answers held back (injected)
 * @param workerCrashes    inference batches on which a worker threw (injected)
 * @param scoreCorruptions scored rows returned as NaN or infinity (injected)
 * @param nonFiniteScores  candidate evaluations that came back non-finite and were given the worst fitness
 * @param rejectedResults  results refused: wrong dimension, non-finite numbers, duplicates, unsampled clients
 * @param lateResults      results for a round that had already closed, ignored
 */
public record RoundIncidents(long clientDrops, long clientCrashes, long clientDelays, long workerCrashes,
                             long scoreCorruptions, long nonFiniteScores, long rejectedResults, long lateResults)
        implements CborSerializable {

    public static final RoundIncidents NONE = new RoundIncidents(0, 0, 0, 0, 0, 0, 0, 0);

    public long faultsInjected() {
        return clientDrops + clientCrashes + clientDelays + workerCrashes + scoreCorruptions;
    }

    public RoundIncidents plus(RoundIncidents other) {
        return new RoundIncidents(clientDrops + other.clientDrops, clientCrashes + other.clientCrashes,
                clientDelays + other.clientDelays, workerCrashes + other.workerCrashes,
                scoreCorruptions + other.scoreCorruptions, nonFiniteScores + other.nonFiniteScores,
                rejectedResults + other.rejectedResults, lateResults + other.lateResults);
    }
}
