package dev.fedbpt.engine.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the framework reads of a method's settings before building it, through the registry rather than by key. */
class MethodsTest {

    private static MethodSettings settings(String dimension, String promptLength, String prefixLength) {
        return new MapSettings(Map.of("search.dimension", dimension, "search.local-iterations", "8",
                "gradient.prompt-length", promptLength, "gradient.prefix-length", prefixLength));
    }

    @Test
    void theModelsFactsComeFromTheKeysTheirPackagesOwn() {
        MethodSettings s = settings("500", "50", "20");
        assertEquals(500, Methods.projectionDimension(s));
        assertEquals(50, Methods.whiteBoxPromptPositions(s));
        assertEquals(8, Methods.crashSteps(s));
        assertEquals(30, Methods.whiteBoxPromptPositions(settings("500", "3", "30")));
    }

    @Test
    void aValueOutOfRangeIsRefusedNamingItsKey() {
        SettingException zero = assertThrows(SettingException.class,
                () -> Methods.projectionDimension(settings("0", "5", "5")));
        assertEquals("search.dimension", zero.key());
        SettingException tooLong = assertThrows(SettingException.class,
                () -> Methods.whiteBoxPromptPositions(settings("10", "5", "600")));
        assertEquals("gradient.prefix-length", tooLong.key());
    }
}
