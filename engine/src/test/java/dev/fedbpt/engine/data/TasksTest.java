package dev.fedbpt.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TasksTest {
    @Test
    void paperTemplates() {
        assertEquals("one long string of cliches . . It was [MASK] .", Tasks.SST2.apply("one long string of cliches ."));
        assertEquals("<mask> News: Oil prices rise", Tasks.AG_NEWS.apply("Oil prices rise", "<mask>"));
        assertEquals("Great tacos . It was <mask> .", Tasks.YELP_POLARITY.apply("Great tacos", "<mask>"));
        assertEquals(List.of("bad", "great"), Tasks.SST2.labelWords());
        assertEquals(List.of("World", "Sports", "Business", "Tech"), Tasks.AG_NEWS.labelWords());
        assertEquals(List.of("bad", "good"), Tasks.YELP_POLARITY.labelWords());
        assertEquals(Tasks.SST2.template(), Tasks.SAMPLE_SENTIMENT.template());
        for (TaskDefinition t : Tasks.all()) {
            assertEquals(t.numClasses(), t.labelDescriptions().size());
        }
    }

    @Test
    void textIsInsertedVerbatim() {
        assertEquals("a [MASK] {text} b . It was <mask> .", Tasks.SST2.apply("a [MASK] {text} b", "<mask>"));
    }

    @Test
    void byNameIsLenientAndListsNames() {
        assertSame(Tasks.SST2, Tasks.byName("SST-2"));
        assertSame(Tasks.AG_NEWS, Tasks.byName("ag_news"));
        assertSame(Tasks.AG_NEWS, Tasks.byName("agnews"));
        assertSame(Tasks.YELP_POLARITY, Tasks.byName("Yelp-Polarity"));
        assertSame(Tasks.SAMPLE_SENTIMENT, Tasks.byName("sample-sentiment"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tasks.byName("imdb"));
        assertTrue(e.getMessage().contains("'imdb'")
                && e.getMessage().contains("sst2, ag-news, yelp-polarity, sample-sentiment"), e.getMessage());
    }

    @Test
    void rejectsInconsistentDefinitions() {
        assertThrows(IllegalArgumentException.class, () -> new TaskDefinition("x", 2, List.of("a", "b"),
                "{text} no mask", List.of("a", "b"), List.of("A.", "B.")));
        assertThrows(IllegalArgumentException.class, () -> new TaskDefinition("x", 2, List.of("a", "b"),
                "{text} [MASK]", List.of("a"), List.of("A.", "B.")));
    }
}
