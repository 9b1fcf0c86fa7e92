package dev.fedbpt.engine.method;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClientSamplerTest {
    @Test
    void sortedDistinctReproducible() {
        int[] a = ClientSampler.sample(3, 4, 0, 100, 0.1);
        assertEquals(10, a.length);
        for (int i = 1; i < a.length; i++) {
            assertTrue(a[i - 1] < a[i]);
        }
        assertArrayEquals(a, ClientSampler.sample(3, 4, 0, 100, 0.1));
        assertEquals(1, ClientSampler.sample(3, 4, 0, 100, 0.001).length);
        assertArrayEquals(new int[] {0, 1, 2}, ClientSampler.sample(3, 4, 0, 3, 1.0));
        assertThrows(IllegalArgumentException.class, () -> ClientSampler.sample(3, 4, 0, 10, 0));
    }
}
