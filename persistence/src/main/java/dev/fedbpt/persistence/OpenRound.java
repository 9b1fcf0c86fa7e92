package dev.fedbpt.persistence;

import dev.fedbpt.engine.fedbpt.LocalResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The round in progress: who was sampled, whose results were accepted, who was dropped. */
public record OpenRound(int round, int attempt, int[] sampled, List<LocalResult> accepted, List<Dropped> dropped)
        implements CborSerializable {

    public record Dropped(int clientId, String reason) implements CborSerializable {}

    public static OpenRound opened(int round, int attempt, int[] sampled) {
        return new OpenRound(round, attempt, sampled.clone(), List.of(), List.of());
    }

    public OpenRound withAccepted(LocalResult result) {
        List<LocalResult> next = new ArrayList<>(accepted);
        next.add(result);
        return new OpenRound(round, attempt, sampled, List.copyOf(next), dropped);
    }

    public OpenRound withDropped(int clientId, String reason) {
        List<Dropped> next = new ArrayList<>(dropped);
        next.add(new Dropped(clientId, reason));
        return new OpenRound(round, attempt, sampled, accepted, List.copyOf(next));
    }

    public boolean isSampled(int clientId) {
        return Arrays.stream(sampled).anyMatch(id -> id == clientId);
    }

    public boolean hasAnswered(int clientId) {
        return accepted.stream().anyMatch(r -> r.clientId() == clientId) || wasDropped(clientId);
    }

    /** Whether the client was dropped from this attempt (missed its deadline, crashed, its member was lost). */
    public boolean wasDropped(int clientId) {
        return dropped.stream().anyMatch(d -> d.clientId() == clientId);
    }

    /** Sampled clients that have neither reported nor been dropped, in ascending id order. */
    public int[] pending() {
        return Arrays.stream(sampled).filter(id -> !hasAnswered(id)).toArray();
    }

    public boolean allAnswered() {
        return pending().length == 0;
    }
}
