package dev.fedbpt.engine.method;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class Fp16Test {
    @Test
    void knownValuesEncodeAsIeeeBinary16() {
        assertEquals(0x3c00, Fp16.fromFloat(1.0f) & 0xffff);
        assertEquals(0xc000, Fp16.fromFloat(-2.0f) & 0xffff);
        assertEquals(0x7bff, Fp16.fromFloat(65504f) & 0xffff);
        assertEquals(0x7c00, Fp16.fromFloat(1e6f) & 0xffff, "overflow is infinity");
        assertEquals(0x2e66, Fp16.fromFloat(0.1f) & 0xffff);
        assertEquals(0x0001, Fp16.fromFloat(0x1p-24f) & 0xffff, "smallest subnormal");
        assertEquals(0x0000, Fp16.fromFloat(0x1p-26f) & 0xffff, "below half the smallest subnormal is zero");
    }

    @Test
    void everyFiniteHalfSurvivesTheRoundTrip() {
        for (int bits = 0; bits < 0x10000; bits++) {
            if ((bits & 0x7c00) == 0x7c00) {
                continue; // infinities and NaNs
            }
            float value = Fp16.toFloat((short) bits);
            assertEquals(bits, Fp16.fromFloat(value) & 0xffff, "half " + Integer.toHexString(bits));
        }
    }

    @Test
    void roundsToNearestWithTiesToEven() {
        float one = 1.0f;
        float ulp = 0x1p-10f; // spacing of halves in [1, 2)
        assertEquals(0x3c00, Fp16.fromFloat(one + ulp / 2) & 0xffff, "a tie goes to the even 1.0");
        assertEquals(0x3c02, Fp16.fromFloat(one + 1.5f * ulp) & 0xffff, "a tie goes to the even 1 + 2 ulp");
        assertEquals(0x3c01, Fp16.fromFloat(one + 0.6f * ulp) & 0xffff);
    }
}
