package dev.fedbpt.engine.fedbpt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CommunicationCostTest {
    @Test
    void paperSizes() {
        assertEquals((500 + 8 + 1) * 8L, CommunicationCost.fedBptUplinkBytes(500, 8)); // 4072 B, the paper's "4 KB"
        assertEquals(500 * 500 * 8L, CommunicationCost.fullCovarianceDownlinkBytes(500)); // 2 MB
        assertEquals((500 + 1 + 500 * 501 / 2 + 1000) * 8L, CommunicationCost.fedBptDownlinkBytes(500));
        assertEquals((3 + 1 + 6 + 6) * 8L, CommunicationCost.fedBptDownlinkBytes(3));
        assertEquals(CommunicationCost.fedBptUplinkBytes(3, 2) + (6 + 6 + 1) * 8L,
                CommunicationCost.fedAvgBbtUplinkBytes(3, 2));
    }
}
