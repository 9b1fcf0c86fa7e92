package dev.fedbpt.engine.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RoundNumbersTest {
    @Test
    void roundOneIsIndexZeroAndBack() {
        assertEquals(0, RoundNumbers.index(1));
        assertEquals(1, RoundNumbers.number(0));
        for (int n = 1; n < 100; n++) {
            assertEquals(n, RoundNumbers.number(RoundNumbers.index(n)));
        }
        assertThrows(IllegalArgumentException.class, () -> RoundNumbers.index(0));
        assertThrows(IllegalArgumentException.class, () -> RoundNumbers.number(-1));
    }
}
