package dev.fedbpt.engine.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the framework reads of a method's settings before building it, through the registry rather than by key. */
class MethodsTest {

    private static MethodSettings settings(String dimension, String promptLength, String prefixLength) {
        return new MapSettings(Map.of("search.dimension", dimension, "search.local-iterations", "8",
                "gradient.prompt-length", promptLength, "gradient.prefix-length", prefixLength,
                "gradient.local-epochs", "3", "dls-ec.local-steps", "40", "dls-ec.post-tuning.dimension", "200",
                "dls-ec.post-tuning.rows", "held-apart", "dls-ec.post-tuning.shots-per-class", "16"));
    }

    @Test
    void eachMethodSaysWhatItNeedsFromTheKeysItsPackageOwns() {
        MethodSettings s = settings("500", "50", "20");
        assertEquals(new MethodNeeds(500, 8, 0), Methods.needs("fedbpt", s));
        assertEquals(new MethodNeeds(500, 8, 0), Methods.needs("centralised-bbt", s));
        assertEquals(new MethodNeeds(0, 1, 0), Methods.needs("fed-bbpt", s), "token prompts carry no z");
        assertEquals(new MethodNeeds(200, 40, 0, 16, "dls-ec.post-tuning.shots-per-class"), Methods.needs("dls-ec", s),
                "its own post-tuning d and steps, and 16 held-apart rows per class (and as many dev rows)");
        assertEquals(new MethodNeeds(200, 40, 0), Methods.needs("bbt", new MapSettings(Map.of("dls-ec.local-steps",
                "40", "dls-ec.post-tuning.dimension", "200", "dls-ec.post-tuning.rows", "training"))),
                "post-tuning on the training rows asks for none");
        assertEquals(new MethodNeeds(0, 3, 50), Methods.needs("fedprompt", s));
        assertEquals(new MethodNeeds(0, 3, 30), Methods.needs("fedpeptao", settings("500", "3", "30")));
    }

    @Test
    void aValueOutOfRangeIsRefusedNamingItsKey() {
        SettingException zero = assertThrows(SettingException.class,
                () -> Methods.needs("fedbpt", settings("0", "5", "5")));
        assertEquals("search.dimension", zero.key());
        SettingException tooLong = assertThrows(SettingException.class,
                () -> Methods.needs("fedp-tuning", settings("10", "5", "600")));
        assertEquals("gradient.prefix-length", tooLong.key());
    }
}
