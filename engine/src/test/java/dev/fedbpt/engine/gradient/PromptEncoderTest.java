package dev.fedbpt.engine.gradient;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PromptEncoderTest {

    @Test
    void itsSizeIsFedBptsFifteenMillionAtRobertaLargeAndTwoHundredThirtyFiveAtLlama() {
        assertEquals(14_749_696, PromptEncoder.parameterCount(50, 1024), "FedBPT's Table 1: FedP-tuning 15M");
        assertEquals(235_159_552, PromptEncoder.parameterCount(50, 4096), "FedBPT's Table 3: 235M");
        assertEquals(PromptEncoder.parameterCount(3, 4), new PromptEncoder(3, 4).size());
        assertThrows(IllegalArgumentException.class, () -> new PromptEncoder(3, 5), "H/2 needs an even H");
    }

    @Test
    void oneStepOfWidthTwoIsTheLstmAndMlpWrittenOut() {
        // T = 1, H = 2, h = 1: every weight a scalar, so the forward pass can be written out by hand from PyTorch's
        // LSTM equations (gates i, f, g, o; c = f c0 + i g; h = o tanh(c)) with h0 = c0 = 0.
        PromptEncoder encoder = new PromptEncoder(1, 2);
        double[] p = new double[encoder.size()];
        SplittableRandom random = new SplittableRandom(4);
        for (int i = 0; i < p.length; i++) p[i] = random.nextDouble(-1, 1);
        double[] x = {p[0], p[1]};
        int at = 2;
        double[] layerOut = new double[2];
        for (int layer = 0; layer < 2; layer++) {
            double[] next = new double[2];
            for (int dir = 0; dir < 2; dir++) {
                // W_ih: 4 x 2, W_hh: 4 x 1 (times h0 = 0), b_ih: 4, b_hh: 4
                double[] a = new double[4];
                for (int r = 0; r < 4; r++) {
                    a[r] = p[at + 2 * r] * x[0] + p[at + 2 * r + 1] * x[1] + p[at + 12 + r] + p[at + 16 + r];
                }
                double c = sigmoid(a[0]) * Math.tanh(a[2]);
                next[dir] = sigmoid(a[3]) * Math.tanh(c);
                at += 20;
            }
            x = next;
            layerOut = next;
        }
        double[] z = new double[2];
        double[] out = new double[2];
        for (int r = 0; r < 2; r++) z[r] = Math.max(0, p[at + 2 * r] * layerOut[0] + p[at + 2 * r + 1] * layerOut[1]
                + p[at + 4 + r]);
        at += 6;
        for (int r = 0; r < 2; r++) out[r] = p[at + 2 * r] * z[0] + p[at + 2 * r + 1] * z[1] + p[at + 4 + r];
        assertEquals(p.length, at + 6);
        assertArrayEquals(out, encoder.forward(p).prompt(), 1e-12);
    }

    @Test
    void theBackwardPassIsTheFiniteDifferenceOfTheForwardOne() {
        PromptEncoder encoder = new PromptEncoder(3, 4);
        double[] p = PromptLayout.widen(encoder.initialParameters(11));
        SplittableRandom random = new SplittableRandom(2);
        double[] weights = new double[3 * 4];
        for (int i = 0; i < weights.length; i++) weights[i] = random.nextDouble(-1, 1);
        double[] gradient = encoder.forward(p).backward(weights);
        double eps = 1e-6;
        for (int i = 0; i < p.length; i++) {
            double keep = p[i];
            p[i] = keep + eps;
            double up = dot(weights, encoder.forward(p).prompt());
            p[i] = keep - eps;
            double down = dot(weights, encoder.forward(p).prompt());
            p[i] = keep;
            assertEquals((up - down) / (2 * eps), gradient[i], 1e-7, "parameter " + i);
        }
    }

    @Test
    void theStartIsPyTorchsDefaultsDrawnFromTheSeed() {
        PromptEncoder encoder = new PromptEncoder(50, 64);
        float[] a = encoder.initialParameters(7);
        assertArrayEquals(a, encoder.initialParameters(7));
        assertFalse(java.util.Arrays.equals(a, encoder.initialParameters(8)));
        double sum = 0;
        for (int i = 0; i < 50 * 64; i++) sum += a[i] * a[i];
        assertEquals(1, sum / (50 * 64), 0.1, "the Embedding is N(0, 1)");
        double lstmBound = 1 / Math.sqrt(32);
        for (int i = 50 * 64; i < a.length; i++) {
            assertTrue(Math.abs(a[i]) <= lstmBound + 1e-7, "LSTM U(-1/sqrt(h), 1/sqrt(h)); Linear 1/sqrt(H) is smaller");
        }
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) s += a[i] * b[i];
        return s;
    }

    private static double sigmoid(double v) {
        return 1 / (1 + Math.exp(-v));
    }
}
