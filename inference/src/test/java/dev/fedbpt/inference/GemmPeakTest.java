package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GemmPeakTest {
    @Test
    void bothPrecisionsRunTheProductOnTheThreadsAsked() throws Exception {
        GemmPeak.Shape3 shape = new GemmPeak.Shape3(64, 32, 48);
        assertEquals(2.0 * 64 * 32 * 48, shape.operations());
        assertEquals("64x32x48", shape.toString());
        GemmPeak.Result r = GemmPeak.measure(shape, ModelOptions.defaults().withIntraOpThreads(1), 3);
        assertEquals(1, r.threads());
        assertTrue(r.fp32GigaFlops() > 0 && Double.isFinite(r.fp32GigaFlops()), r.toString());
        assertTrue(r.int8GigaOps() > 0 && Double.isFinite(r.int8GigaOps()), r.toString());
    }
}
