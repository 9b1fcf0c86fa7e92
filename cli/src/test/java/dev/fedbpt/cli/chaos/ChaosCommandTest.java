package dev.fedbpt.cli.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fedbpt.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `fedbpt chaos --json` end to end on a reduced grid of a tiny experiment: a fault-free run against a second one,
 * worker crashes, and a run killed with SIGKILL in a child JVM and resumed; all must end with the reference's hash.
 */
class ChaosCommandTest {
    private static final Set<String> KEYS = new TreeSet<>(List.of("setting", "trial", "faults_injected",
            "rounds_completed", "rounds_resampled", "results_rejected", "results_late", "kills",
            "hash_expected_equal", "hash_equal", "stopped"));

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream originalOut;
    private PrintStream originalErr;

    @BeforeEach
    void capture() {
        originalOut = System.out;
        originalErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        System.setErr(originalErr);
    }

    @Test
    void reducedGridReportsJsonRowsWithMatchingHashes() throws Exception {
        int code = Main.execute("chaos", "--json", "--only", "none", "--only", "worker crash 20%", "--only",
                "kill x2", "--set", "experiment.rounds=3", "--set", "federation.clients=4", "--out",
                dir.resolve("chaos").toString());
        String stdout = out.toString(StandardCharsets.UTF_8);
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertEquals(Main.OK, code, stdout + stderr);
        JsonNode rows = new ObjectMapper().readTree(stdout);
        assertEquals(3, rows.size(), stdout);
        List<String> settings = new ArrayList<>();
        for (JsonNode row : rows) {
            Set<String> keys = new TreeSet<>();
            row.fieldNames().forEachRemaining(keys::add);
            assertEquals(KEYS, keys);
            settings.add(row.get("setting").asText());
            assertEquals(1, row.get("trial").asInt());
            assertEquals(3, row.get("rounds_completed").asInt(), row.toString());
            assertTrue(row.get("hash_expected_equal").asBoolean(), row.toString());
            assertTrue(row.get("hash_equal").asBoolean(), row.toString());
            assertTrue(row.get("stopped").isNull(), row.toString());
        }
        assertEquals(List.of("none", "worker crash 20%", "kill x2"), settings);
        assertEquals(0, rows.get(0).get("faults_injected").asLong());
        assertTrue(rows.get(1).get("faults_injected").asLong() > 0, "worker crashes were injected: " + rows.get(1));
        assertTrue(rows.get(2).get("kills").asInt() >= 1, "a kill landed mid-run: " + rows.get(2));
        assertTrue(stderr.contains("1/4] reference fault-free (trial 1)"), stderr);
    }

    @Test
    void unknownSettingIsBadInput() {
        assertEquals(Main.BAD_INPUT, Main.execute("chaos", "--only", "drop 99%", "--out", dir.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown chaos setting"));
    }
}
