package dev.fedbpt.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SampleDataTest {
    @Test
    void balancedAndDisjoint() {
        Dataset train = SampleData.train();
        Dataset test = SampleData.test();
        assertEquals("sample-sentiment", train.name());
        assertEquals("sample-sentiment", test.name());
        assertArrayEquals(new int[] {120, 120}, train.labelCounts());
        assertArrayEquals(new int[] {60, 60}, test.labelCounts());
        Set<String> texts = new HashSet<>();
        train.examples().forEach(e -> assertTrue(texts.add(e.text()), "duplicate: " + e.text()));
        test.examples().forEach(e -> assertTrue(texts.add(e.text()), "duplicate: " + e.text()));
    }
}
