package dev.fedbpt.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TaskDefinitionTest {
    @Test
    void singleInputTemplates() {
        assertEquals("one long string of cliches . . It was [MASK] .",
                TestTasks.SST2.apply(new Example("one long string of cliches .", 0)));
        assertEquals("Great tacos . It was <mask> .", TestTasks.SST2.apply(new Example("Great tacos", 1), "<mask>"));
    }

    @Test
    void pairTemplatesPlaceEachInput() {
        TaskDefinition rte = TestTasks.pair(null);
        assertTrue(rte.pairs());
        assertEquals("A man sleeps. entailment? <mask>. Nobody sleeps.",
                rte.apply(new Example(List.of("A man sleeps.", "Nobody sleeps."), 1), "<mask>"));
    }

    @Test
    void inputsAreInsertedVerbatim() {
        assertEquals("a [MASK] {text} b . It was <mask> .",
                TestTasks.SST2.apply(new Example("a [MASK] {text} b", 0), "<mask>"));
    }

    @Test
    void rejectsInconsistentDefinitions() {
        List<TaskMetric> acc = List.of(TaskMetric.ACCURACY);
        IllegalArgumentException noMask = assertThrows(IllegalArgumentException.class, () -> new TaskDefinition("x",
                List.of("text"), List.of("0", "1"), List.of("a", "b"), "{text} no mask", List.of("a", "b"),
                List.of("A.", "B."), acc, -1, null));
        assertTrue(noMask.getMessage().contains("[MASK]"), noMask.getMessage());
        IllegalArgumentException words = assertThrows(IllegalArgumentException.class, () -> new TaskDefinition("x",
                List.of("text"), List.of("0", "1"), List.of("a", "b"), "{text} [MASK]", List.of("a"),
                List.of("A.", "B."), acc, -1, null));
        assertTrue(words.getMessage().contains("1 words"), words.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> new TaskDefinition("x",
                List.of("text"), List.of("0", "1"), List.of("a", "b"), "{txt} [MASK]", List.of("a", "b"),
                List.of("A.", "B."), acc, -1, null));
        assertTrue(unknown.getMessage().contains("{txt}"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new TaskDefinition("x", List.of("a", "b"),
                List.of("0", "1"), List.of("a", "b"), "{a} [MASK]", List.of("a", "b"), List.of("A.", "B."), acc, -1,
                null), "the template must place every input");
        assertThrows(IllegalArgumentException.class, () -> new TaskDefinition("x", List.of("text"),
                List.of("0", "1"), List.of("a", "b"), "{text} [MASK]", List.of("a", "b"), List.of("A.", "B."),
                List.of(TaskMetric.F1), -1, null), "f1 needs a positive label");
        assertThrows(IllegalArgumentException.class, () -> new TaskDefinition("x", List.of("text"),
                List.of("0", "0"), List.of("a", "b"), "{text} [MASK]", List.of("a", "b"), List.of("A.", "B."), acc,
                -1, null), "label values must differ");
    }
}
