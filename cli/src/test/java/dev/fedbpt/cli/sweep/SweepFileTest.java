package dev.fedbpt.cli.sweep;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.config.ConfigError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mistakes in a sweep file are reported naming the file and the grid, axis and value they are in. */
class SweepFileTest {
    @TempDir
    Path dir;

    private String error(String grids) throws Exception {
        Path file = dir.resolve("bad.conf");
        Files.writeString(file, "sweep { out = \"out\", set { model.backend = \"synthetic\" }, grids = [" + grids + "] }\n");
        ConfigError error = assertThrows(ConfigError.class,
                () -> SweepPlan.validate(SweepFile.read(file), dir.resolve("out"), List.of()));
        assertTrue(error.getMessage().contains("sweep file " + file), error.getMessage());
        return error.getMessage();
    }

    private static void assertContains(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "'" + part + "' missing in: " + message);
        }
    }

    @Test
    void unknownConfigKeyInALabelledValueNamesAxisValueAndSuggestsTheKey() throws Exception {
        assertContains(error("""
                { axes = [ { name = "data", values = [
                    { label = "ok", set { data.shots-per-class = 4 } }
                    { label = "typo", set { data.shots-per-clas = 4 } } ] } ] }"""),
                "grid 1, axis 'data', value 'typo'", "fedbpt.data.shots-per-clas", "did you mean fedbpt.data.shots-per-class");
    }

    @Test
    void badValueOfAKeyedAxisNamesAxisAndValue() throws Exception {
        assertContains(error("""
                { axes = [ { name = "method", key = "experiment.method", values = ["fedbpt", "fedbtp"] } ] }"""),
                "grid 1, axis 'method', value 'fedbtp'", "fedbpt.experiment.method", "expected one of");
    }

    @Test
    void unknownKeyOfAnAxisIsNamed() throws Exception {
        assertContains(error("""
                { axes = [ { name = "seed", key = "experiment.sed", values = [1] } ] }"""),
                "axis 'seed', value '1'", "fedbpt.experiment.sed");
    }

    @Test
    void structuralMistakesAreNamed() throws Exception {
        assertContains(error("{ axes = [ { name = \"seed\", valuse = [1] } ] }"), "grid 1, axis 1", "unknown field 'valuse'");
        assertContains(error("{ axes = [ { name = \"seed\", values = [1] } ] }"),
                "grid 1, axis 'seed', value 1", "the axis has no key");
        assertContains(error("{ axes = [ { name = \"t\", key = \"data.train\", values = [\"a/b.tsv\"] } ] }"),
                "label 'a/b.tsv' cannot be part of a folder name");
        assertContains(error("{ axes = [] }"), "grid 1", "axes must not be empty");
        assertContains(error("""
                { axes = [ { name = "seed", key = "experiment.seed", values = [1] } ] },
                { axes = [ { name = "s", key = "experiment.seed", values = [1] } ] }"""),
                "cell '1' comes twice (grid 1 and grid 2)");
    }
}
