package dev.fedbpt.engine.cmaes;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * pycma 3.4.0's recorded runs ({@code ../shared/reference/pycma-fixtures}, see its README): where they are, how to
 * read them, and the README's comparisons (vectors by max |a - b| / max |b|, scalars by |a / b - 1|). Tests that use
 * them are skipped, with the paths tried, where shared/ is absent.
 */
public final class PycmaFixtures {
    /** The README's tolerance: a faithful implementation reaches about 1e-15; every behaviour moves a value by more. */
    public static final double TOLERANCE = 1e-12;

    private PycmaFixtures() {}

    public static JsonNode read(String file) {
        List<Path> candidates = List.of(Path.of("../shared/reference/pycma-fixtures"),
                Path.of("../../shared/reference/pycma-fixtures"));
        String property = System.getProperty("fedbpt.pycma-fixtures");
        Path dir = property != null ? Path.of(property)
                : candidates.stream().filter(Files::isDirectory).findFirst().orElse(null);
        Assumptions.assumeTrue(dir != null && Files.isRegularFile(dir.resolve(file)),
                "pycma fixtures not found (tried " + candidates + "); skipping");
        try {
            return new ObjectMapper().readTree(dir.resolve(file).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static double[] vector(JsonNode node) {
        double[] out = new double[node.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = node.get(i).isNull() ? Double.NaN : node.get(i).asDouble();
        }
        return out;
    }

    public static double[][] matrix(JsonNode node) {
        double[][] out = new double[node.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = vector(node.get(i));
        }
        return out;
    }

    public static int[] ints(JsonNode node) {
        int[] out = new int[node.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = node.get(i).asInt();
        }
        return out;
    }

    public static double relative(double[] actual, double[] expected) {
        double diff = 0;
        double scale = 0;
        for (int i = 0; i < expected.length; i++) {
            diff = Math.max(diff, Math.abs(actual[i] - expected[i]));
            scale = Math.max(scale, Math.abs(expected[i]));
        }
        return scale == 0 ? diff : diff / scale;
    }

    public static void assertClose(double[] actual, double[] expected, String what) {
        double r = relative(actual, expected);
        assertTrue(r <= TOLERANCE, what + ": relative difference " + r + " > " + TOLERANCE);
    }

    public static void assertClose(double actual, double expected, String what) {
        double r = expected == 0 ? Math.abs(actual) : Math.abs(actual / expected - 1);
        assertTrue(r <= TOLERANCE, what + ": " + actual + " vs pycma's " + expected + " (relative " + r + ")");
    }

    public static void assertClose(double[][] actual, double[][] expected, String what) {
        double diff = 0;
        double scale = 0;
        for (int i = 0; i < expected.length; i++) {
            for (int j = 0; j < expected[i].length; j++) {
                diff = Math.max(diff, Math.abs(actual[i][j] - expected[i][j]));
                scale = Math.max(scale, Math.abs(expected[i][j]));
            }
        }
        assertTrue(diff / scale <= TOLERANCE, what + ": relative difference " + diff / scale);
    }

    /**
     * The server fixture's C0 = diag(a) + u u^T + v v^T from {@code start.C_construction}, element by element in
     * pycma's order, which reproduces its bits.
     */
    public static double[][] serverC0(JsonNode start) {
        JsonNode construction = start.get("C_construction");
        double[] a = vector(construction.get("a"));
        double[] u = vector(construction.get("u"));
        double[] v = vector(construction.get("v"));
        int n = a.length;
        double[][] c0 = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                c0[i][j] = ((i == j ? a[i] : 0.0) + u[i] * u[j]) + v[i] * v[j];
            }
        }
        return c0;
    }

    /** A covariance against a {@code C_summary}: diagonal, first row, trace and Frobenius norm. */
    public static void assertSummary(double[][] c, JsonNode summary, String what) {
        int n = c.length;
        double[] diag = new double[n];
        double trace = 0;
        double frob = 0;
        for (int i = 0; i < n; i++) {
            diag[i] = c[i][i];
            trace += c[i][i];
            for (int j = 0; j < n; j++) {
                frob += c[i][j] * c[i][j];
            }
        }
        assertClose(diag, vector(summary.get("diag")), what + " diag C");
        assertClose(c[0], vector(summary.get("row0")), what + " C row 0");
        assertClose(trace, summary.get("trace").asDouble(), what + " trace C");
        assertClose(Math.sqrt(frob), summary.get("frobenius").asDouble(), what + " Frobenius C");
    }
}
