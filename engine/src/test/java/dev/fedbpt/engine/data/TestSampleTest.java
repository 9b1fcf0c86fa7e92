package dev.fedbpt.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestSampleTest {
    /** 100 examples sorted by label: 70 of class 0, then 30 of class 1; input i is "i". */
    static List<Example> sorted() {
        List<Example> out = new ArrayList<>();
        for (int i = 0; i < 100; i++) out.add(new Example(List.of(String.valueOf(i)), i < 70 ? 0 : 1));
        return out;
    }

    @Test
    void eachClassKeepsItsShareInTheFilesOrder() {
        List<Example> sample = TestSample.stratified(sorted(), 10, 2, Rng.of(1, Purpose.TEST_SAMPLE, 0));
        assertEquals(10, sample.size());
        assertEquals(7, sample.stream().filter(e -> e.label() == 0).count(), "70% of 10");
        assertEquals(3, sample.stream().filter(e -> e.label() == 1).count(), "30% of 10");
        for (int i = 1; i < sample.size(); i++) {
            assertTrue(Integer.parseInt(sample.get(i - 1).inputs().get(0)) < Integer.parseInt(sample.get(i).inputs()
                    .get(0)), "the file's order");
        }
    }

    @Test
    void theSampleIsDrawnByTheSeed() {
        List<Example> a = TestSample.stratified(sorted(), 10, 2, Rng.of(1, Purpose.TEST_SAMPLE, 0));
        assertEquals(a, TestSample.stratified(sorted(), 10, 2, Rng.of(1, Purpose.TEST_SAMPLE, 0)));
        assertNotEquals(a, TestSample.stratified(sorted(), 10, 2, Rng.of(2, Purpose.TEST_SAMPLE, 0)));
        assertNotEquals(sorted().subList(0, 7), a.subList(0, 7), "not the head of each class");
    }

    @Test
    void remaindersGoToTheLargestShareAndACapAsLargeAsTheFileKeepsIt() {
        List<Example> sample = TestSample.stratified(sorted(), 5, 2, Rng.of(1, Purpose.TEST_SAMPLE, 0));
        assertEquals(4, sample.stream().filter(e -> e.label() == 0).count(), "3.5 -> 4 (remainder 0.5 vs 0.5, lower "
                + "label first)");
        assertEquals(1, sample.stream().filter(e -> e.label() == 1).count());
        List<Example> all = sorted();
        assertSame(all, TestSample.stratified(all, 100, 2, Rng.of(1, Purpose.TEST_SAMPLE, 0)));
    }
}
