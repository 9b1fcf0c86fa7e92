package dev.fedbpt.actors.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the clients of the open round attempt run, as they report it, and which cluster members were removed during
 * it: what the server needs to drop the clients of a lost member at once and to re-send round messages that no
 * client confirmed. Only a cluster run's clients confirm their starts; on one JVM nothing is recorded. Lives with the
 * server actor's (non-journalled) state for one round attempt.
 */
public final class ClientPlacement {
    private final Map<Integer, String> nodeOfClient = new HashMap<>();
    private final Set<String> lostNodes = new HashSet<>();

    /** A new round attempt: nothing is known of where its clients run. */
    public void reset() {
        nodeOfClient.clear();
        lostNodes.clear();
    }

    /** Client {@code clientId} started on {@code node}; true when that member was already removed (drop it). */
    public boolean started(int clientId, String node) {
        nodeOfClient.put(clientId, node);
        return lostNodes.contains(node);
    }

    /** The client's entity stopped (its shard moves): the next re-send reaches it where it lives now. */
    public void stopped(int clientId) {
        nodeOfClient.remove(clientId);
    }

    /** Member {@code node} was removed: which of the {@code pending} clients started there (drop them). */
    public List<Integer> lost(String node, int[] pending) {
        lostNodes.add(node);
        List<Integer> onNode = new ArrayList<>();
        for (int clientId : pending) {
            if (node.equals(nodeOfClient.get(clientId))) {
                onNode.add(clientId);
            }
        }
        return onNode;
    }

    /** The {@code pending} clients that never confirmed a start: their round message may be lost. */
    public List<Integer> unconfirmed(int[] pending) {
        List<Integer> unconfirmed = new ArrayList<>();
        for (int clientId : pending) {
            if (!nodeOfClient.containsKey(clientId)) {
                unconfirmed.add(clientId);
            }
        }
        return unconfirmed;
    }

    /** Why a client of a removed member is dropped. */
    public static String dropReason(String node) {
        return "its cluster member " + node + " was removed from the cluster mid-round";
    }
}
