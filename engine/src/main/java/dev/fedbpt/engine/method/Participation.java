package dev.fedbpt.engine.method;

import java.util.Arrays;

/**
 * Who takes part in which round: a federated round samples among the participants (every client but the held-out
 * ones); a personalised method's personalisation round, the one after the federated rounds, takes every client.
 * With no client held out a federated round's sample is {@link ClientSampler}'s over the whole population.
 *
 * @param heldOut              sorted ids of the clients that never take part in a federated round
 * @param personalisationRound the 0-based round in which every client takes part, or -1 for none
 */
public record Participation(int population, int[] heldOut, int personalisationRound) {
    public Participation {
        heldOut = heldOut.clone();
        Arrays.sort(heldOut);
        for (int i = 0; i < heldOut.length; i++) {
            if (heldOut[i] < 0 || heldOut[i] >= population || (i > 0 && heldOut[i] == heldOut[i - 1])) {
                throw new IllegalArgumentException("held-out clients must be distinct ids in [0, " + population
                        + "), got " + Arrays.toString(heldOut));
            }
        }
        if (heldOut.length >= population) {
            throw new IllegalArgumentException("every one of the " + population + " clients is held out");
        }
    }

    /** Everyone participates, no personalisation round. */
    public static Participation everyone(int population) {
        return new Participation(population, new int[0], -1);
    }

    public boolean isParticipant(int clientId) {
        return Arrays.binarySearch(heldOut, clientId) < 0;
    }

    /** The clients of a round's attempt, sorted. */
    public int[] clients(long seed, int round, int attempt, double fraction) {
        if (round == personalisationRound) {
            int[] all = new int[population];
            Arrays.setAll(all, i -> i);
            return all;
        }
        int[] participants = new int[population - heldOut.length];
        for (int id = 0, k = 0; id < population; id++) {
            if (isParticipant(id)) {
                participants[k++] = id;
            }
        }
        int[] drawn = ClientSampler.sample(seed, round, attempt, participants.length, fraction);
        int[] chosen = new int[drawn.length];
        for (int i = 0; i < drawn.length; i++) {
            chosen[i] = participants[drawn[i]];
        }
        return chosen; // participants is increasing, so the mapped sample stays sorted
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Participation p && population == p.population
                && personalisationRound == p.personalisationRound && Arrays.equals(heldOut, p.heldOut);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * population + personalisationRound) + Arrays.hashCode(heldOut);
    }

    @Override
    public String toString() {
        return "Participation[population=" + population + ", heldOut=" + Arrays.toString(heldOut)
                + ", personalisationRound=" + personalisationRound + "]";
    }
}
