package dev.fedbpt.persistence;

import dev.fedbpt.engine.method.ClientMemory;
import dev.fedbpt.engine.method.Upload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The round in progress: who was sampled, whose uploads were accepted (with what each client keeps for its next
 * round), who was dropped.
 */
public record OpenRound(int round, int attempt, int[] sampled, List<Upload> accepted, List<Kept> memories,
                        List<Dropped> dropped) implements CborSerializable {

    public record Dropped(int clientId, String reason) implements CborSerializable {}

    /** What client {@code clientId} keeps from this round for its next one. */
    public record Kept(int clientId, ClientMemory memory) implements CborSerializable {}

    public static OpenRound opened(int round, int attempt, int[] sampled) {
        return new OpenRound(round, attempt, sampled.clone(), List.of(), List.of(), List.of());
    }

    public OpenRound withAccepted(Upload upload, ClientMemory memory) {
        List<Upload> next = new ArrayList<>(accepted);
        next.add(upload);
        List<Kept> kept = memories;
        if (memory != null) {
            kept = new ArrayList<>(memories);
            kept.add(new Kept(upload.clientId(), memory));
            kept = List.copyOf(kept);
        }
        return new OpenRound(round, attempt, sampled, List.copyOf(next), kept, dropped);
    }

    public OpenRound withDropped(int clientId, String reason) {
        List<Dropped> next = new ArrayList<>(dropped);
        next.add(new Dropped(clientId, reason));
        return new OpenRound(round, attempt, sampled, accepted, memories, List.copyOf(next));
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
