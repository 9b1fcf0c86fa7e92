package dev.fedbpt.engine.method;

import java.util.Arrays;
import java.util.List;

/**
 * What a round's downlink costs each sampled client, counted from the encoded messages: the whole downlink (its
 * codec's bytes), or, for a client that received the previous round's downlink, the method's {@link RoundUpdate}
 * when that is smaller. A client that missed the previous round gets the whole downlink (no chains of updates).
 *
 * @param snapshot bytes of the whole downlink
 * @param update   bytes of the round update, or -1 where there is none
 * @param holders  the clients that hold the previous round's downlink, sorted
 */
public record DownlinkBytes(long snapshot, long update, int[] holders) {

    /**
     * @param global          the state round {@code roundIndex} (0-based) starts from
     * @param previousSampled the clients sampled in the previous round's closing attempt (null: none)
     * @param previousUploads the previous round's accepted uploads in client id order (null: none)
     */
    public static DownlinkBytes of(FederatedMethod method, MethodState global, int roundIndex, int[] previousSampled,
                                   List<Upload> previousUploads) {
        long snapshot = RoundUpdate.payloadSize(method.configure(global, roundIndex));
        Payload update = previousSampled == null ? null
                : method.downlinkUpdate(global, roundIndex, previousUploads);
        int[] holders = update == null ? new int[0] : previousSampled.clone();
        Arrays.sort(holders);
        return new DownlinkBytes(snapshot, update == null ? -1 : RoundUpdate.encodedSize(update), holders);
    }

    /** Whether a holder of the previous downlink is sent the update rather than the whole downlink. */
    public boolean updatePays() {
        return update >= 0 && RoundUpdate.pays(update, snapshot);
    }

    /** Bytes client {@code clientId} receives. */
    public long forClient(int clientId) {
        return updatePays() && Arrays.binarySearch(holders, clientId) >= 0 ? update : snapshot;
    }

    /** Bytes all of {@code sampled} receive together. */
    public long total(int[] sampled) {
        long sum = 0;
        for (int clientId : sampled) {
            sum += forClient(clientId);
        }
        return sum;
    }
}
