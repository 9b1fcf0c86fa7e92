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
        assertMatchesFiniteDifferences(model, new Prompt.Deep(t, input, np, prefix), WhiteBoxModelTest.rows(model),
                new int[] {1, 0, 1, 0}, 12);
    }

    /**
     * Checks {@code coordinates} coordinates of the loss's gradient at {@code prompt}, drawn at random and taken in
     * turn from the soft prompt and the prefix, against central differences with a 1e-5 step.
     */
    static void assertMatchesFiniteDifferences(WhiteBoxModel model, Prompt.Deep prompt, List<int[]> rows,
                                               int[] labels, int coordinates) {
        double[] input = prompt.input(); // the prompt's own arrays, perturbed in place below
        double[] prefix = prompt.prefix();
        Gradient g = model.lossAndGradient(prompt, rows, labels);
        assertTrue(g.loss() > 0 && Double.isFinite(g.loss()), "loss " + g.loss());
        assertEquals(input.length, g.input().length);
        assertEquals(prefix.length, g.prefix().length);
        Random pick = new Random(5);
        double eps = 1e-5;
        double scale = Math.max(maxAbs(g.input()), maxAbs(g.prefix()));
        assertTrue(scale > 0, "the gradient is not zero");
        for (int k = 0; k < coordinates; k++) {
            boolean inPrefix = k % 2 == 1;
            double[] v = inPrefix ? prefix : input;
            int i = pick.nextInt(v.length);
            double keep = v[i];
            v[i] = keep + eps;
            double up = model.lossAndGradient(prompt, rows, labels).loss();
            v[i] = keep - eps;
            double down = model.lossAndGradient(prompt, rows, labels).loss();
            v[i] = keep;
            double numeric = (up - down) / (2 * eps);
            double analytic = (inPrefix ? g.prefix() : g.input())[i];
            assertEquals(numeric, analytic, 1e-6 * scale + 1e-9,
                    (inPrefix ? "prefix" : "soft prompt") + " coordinate " + i);
        }
    }

    /**
     * How far FedPepTAO's selection-round products (fedpeptao.hvp-step = 1 on the float32 model, a unit Lanczos
     * vector) are from the Hessian's: against central differences with a 1e-4 step in double precision, at a prefix
     * drawn as FedPepTAO draws it (N(0, 1), 20 vectors a layer). Prints the relative error of H v and of v . H v.
     */
    @Test
    void theSelectionRoundsDifferencesOfGradientsAreCloseToTheHessianVectorProduct() throws Exception {
        int np = 20;
        int size = model.layers() * 2 * np * model.hiddenSize();
        double[] w = WhiteBoxCheck.gaussian(size, 1, 31);
        double[] v = WhiteBoxCheck.gaussian(size, 1, 32);
        double norm = Math.sqrt(dot(v, v));
        for (int i = 0; i < size; i++) v[i] /= norm;
        List<int[]> rows = WhiteBoxModelTest.rows(model);
        int[] labels = {1, 0, 1, 0};
        double[] exact = difference(model, w, v, 1e-4, np, rows, labels);
        try (WhiteBoxModel float32 = WhiteBoxModel.load(ModelSource.bundled(), WhiteBoxModelTest.HEAD,
                WhiteBoxModel.Precision.FLOAT32)) {
            double[] used = difference(float32, w, v, 1.0, np, rows, labels);
            double[] error = new double[size];
            for (int i = 0; i < size; i++) error[i] = used[i] - exact[i];
            double relative = Math.sqrt(dot(error, error) / dot(exact, exact));
            double curvature = Math.abs(dot(v, used) - dot(v, exact)) / Math.abs(dot(v, exact));
            System.out.printf("selection-round H v (h = 1, float32) against the Hessian's: relative error %.3g,"
                    + " v . H v %.3g (exact %.4g)%n", relative, curvature, dot(v, exact));
            assertTrue(relative < 0.01 && curvature < 0.01, relative + " / " + curvature);
        }
    }

    /** (g(w + h v) - g(w - h v)) / 2h for a prefix of {@code np} vectors a layer. */
    private static double[] difference(WhiteBoxModel m, double[] w, double[] v, double h, int np, List<int[]> rows,
                                       int[] labels) {
        double[] up = w.clone();
        double[] down = w.clone();
        for (int i = 0; i < w.length; i++) {
            up[i] += h * v[i];
            down[i] -= h * v[i];
        }
        double[] gUp = m.lossAndGradient(Prompt.Deep.prefix(np, up), rows, labels).prefix();
        double[] gDown = m.lossAndGradient(Prompt.Deep.prefix(np, down), rows, labels).prefix();
        double[] out = new double[w.length];
        for (int i = 0; i < out.length; i++) out[i] = (gUp[i] - gDown[i]) / (2 * h);
        return out;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) s += a[i] * b[i];
        return s;
    }

    static double maxAbs(double[] v) {
        double m = 0;
        for (double x : v) m = Math.max(m, Math.abs(x));
        return m;
    }
}
