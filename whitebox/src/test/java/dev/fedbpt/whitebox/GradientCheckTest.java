package dev.fedbpt.whitebox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.inference.ModelSource;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Backpropagation through the rebuilt encoder against central finite differences of the loss, in double precision:
 * a soft prompt and a prefix at once, coordinates drawn at random, each derivative to 1e-6 relative to the gradient's
 * largest entry.
 */
class GradientCheckTest {
    static WhiteBoxModel model;

    @BeforeAll
    static void load() throws Exception {
        model = WhiteBoxModel.load(ModelSource.bundled(), WhiteBoxModelTest.HEAD, WhiteBoxModel.Precision.FLOAT64);
    }

    @AfterAll
    static void close() {
        model.close();
    }

    @Test
    void gradientsOfSoftPromptAndPrefixMatchFiniteDifferences() {
        int h = model.hiddenSize();
        int t = 2;
        int np = 3;
        double[] input = WhiteBoxCheck.gaussian(t * h, 0.1, 11);
        double[] prefix = WhiteBoxCheck.gaussian(model.layers() * 2 * np * h, 0.3, 12);
        List<int[]> rows = WhiteBoxModelTest.rows(model);
        int[] labels = {1, 0, 1, 0};
        Gradient g = model.lossAndGradient(new Prompt.Deep(t, input, np, prefix), rows, labels);
        assertTrue(g.loss() > 0 && Double.isFinite(g.loss()), "loss " + g.loss());
        assertEquals(input.length, g.input().length);
        assertEquals(prefix.length, g.prefix().length);
        Random pick = new Random(5);
        double eps = 1e-5;
        double scale = Math.max(maxAbs(g.input()), maxAbs(g.prefix()));
        assertTrue(scale > 0, "the gradient is not zero");
        for (int k = 0; k < 12; k++) {
            boolean inPrefix = k % 2 == 1;
            double[] v = inPrefix ? prefix : input;
            int i = pick.nextInt(v.length);
            double keep = v[i];
            v[i] = keep + eps;
            double up = model.lossAndGradient(new Prompt.Deep(t, input, np, prefix), rows, labels).loss();
            v[i] = keep - eps;
            double down = model.lossAndGradient(new Prompt.Deep(t, input, np, prefix), rows, labels).loss();
            v[i] = keep;
            double numeric = (up - down) / (2 * eps);
            double analytic = (inPrefix ? g.prefix() : g.input())[i];
            assertEquals(numeric, analytic, 1e-6 * scale + 1e-9,
                    (inPrefix ? "prefix" : "soft prompt") + " coordinate " + i);
        }
    }

    static double maxAbs(double[] v) {
        double m = 0;
        for (double x : v) m = Math.max(m, Math.abs(x));
        return m;
    }
}
