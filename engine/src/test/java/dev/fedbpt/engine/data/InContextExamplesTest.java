package dev.fedbpt.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.List;
import org.junit.jupiter.api.Test;

class InContextExamplesTest {
    private static final Dataset TRAIN = new Dataset("t", List.of(
            new Example("bad one", 0), new Example("good one", 1), new Example("bad two", 0),
            new Example("good two", 1), new Example("bad three", 0)), List.of("negative", "positive"));

    @Test
    void selectsUpToKCyclingThroughTheClassesDeterministically() {
        List<Example> five = InContextExamples.select(TRAIN, 5, Rng.of(1, Purpose.FEW_SHOT, 1));
        assertEquals(List.of(0, 1, 0, 1, 0), five.stream().map(Example::label).toList());
        assertEquals(five, InContextExamples.select(TRAIN, 5, Rng.of(1, Purpose.FEW_SHOT, 1)));
        assertEquals(5, five.stream().distinct().count());
        assertEquals(3, InContextExamples.select(TRAIN, 3, Rng.of(2, Purpose.FEW_SHOT, 1)).size());
    }

    @Test
    void writesTheFirstNDemonstrationsEachFollowedByItsLabelsDescription() {
        List<Example> demos = List.of(new Example("Awful. ", 0), new Example("Lovely.", 1));
        assertEquals("Awful. It was terrible. Lovely. It was great.", InContextExamples.context(demos, TestTasks.SST2, 2));
        assertEquals("Awful. It was terrible.", InContextExamples.context(demos, TestTasks.SST2, 1));
        assertEquals("", InContextExamples.context(demos, TestTasks.SST2, 0));
    }
}
