package dev.fedbpt.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClientPlacementTest {
    @Test
    void aLostMembersClientsAreDroppedAndTheUnconfirmedOnesResent() {
        ClientPlacement placement = new ClientPlacement();
        int[] pending = {0, 1, 2, 3};
        assertFalse(placement.started(0, "a"));
        assertFalse(placement.started(1, "b"));
        assertFalse(placement.started(2, "a"));
        assertEquals(List.of(3), placement.unconfirmed(pending));
        assertEquals(List.of(0, 2), placement.lost("a", pending));
        assertTrue(placement.started(3, "a"), "a start reported from a removed member is dropped at once");
        placement.stopped(1);
        assertEquals(List.of(1), placement.unconfirmed(pending), "a moved shard is sent the round again");
        placement.reset();
        assertEquals(List.of(0, 1, 2, 3), placement.unconfirmed(pending));
        assertFalse(placement.started(0, "a"), "a new attempt forgets the removed members");
    }
}
