package dev.fedbpt.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConfusionTest {
    @Test
    void recallIsEachClassesRowsPredictedAsItOverItsRows() {
        Confusion confusion = Confusion.of(new long[][] {{40, 10, 0}, {5, 45, 0}, {0, 0, 0}});
        assertEquals(List.of(List.of(40, 10, 0), List.of(5, 45, 0), List.of(0, 0, 0)), confusion.counts());
        List<Double> recall = confusion.recall();
        assertEquals(0.8, recall.get(0), 1e-15);
        assertEquals(0.9, recall.get(1), 1e-15);
        assertTrue(recall.get(2).isNaN(), "a class without rows has no recall");
        assertEquals(-1, confusion.onlyPredictedClass());
        assertTrue(confusion.recorded());
    }

    @Test
    void aPromptThatPredictsOneClassIsTold() {
        assertEquals(1, Confusion.of(new long[][] {{0, 30, 0}, {0, 25, 0}, {0, 2, 0}}).onlyPredictedClass());
        assertEquals(-1, Confusion.EMPTY.onlyPredictedClass(), "nothing recorded, nothing to tell");
        assertFalse(Confusion.EMPTY.recorded());
        assertEquals(Confusion.EMPTY, new Confusion(null), "as a journal written before it was kept reads");
    }
}
