package dev.fedbpt.engine.fedpeptao;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Algorithm 1's arithmetic against the authors' own functions: the expected numbers below are what get_ratio.py's
 * {@code _density_generate}, {@code _get_ratio} and search loop, and run_getscore.py's score, print for the same
 * inputs (numpy 2.4, run once; the script is in the test's comments).
 */
class LayerSelectionMathTest {
    // python3: for the Ritz values and weights below,
    //   search(e, w) -> ratios[-1];  _get_ratio(0.25, e, w)
    @Test
    void theKeepRatioIsTheReferenceCodes() {
        KeepRatio spread = new KeepRatio(new double[]{-0.05, 0.0, 0.02, 0.3, 0.9, 1.7},
                new double[]{0.1, 0.3, 0.2, 0.15, 0.15, 0.1});
        assertEquals(0.399834936992686, spread.search(), 1e-12);
        assertEquals(0.399834936992686, spread.ratio(0.25), 1e-12);
        KeepRatio narrow = new KeepRatio(new double[]{-0.002, 0.001, 0.004, 0.03, 0.05},
                new double[]{0.2, 0.4, 0.2, 0.1, 0.1});
        assertEquals(0.6708457147197318, narrow.search(), 1e-12, "the step halved 11 times before it levelled off");
        assertEquals(6.122357156801428e-07, narrow.ratio(0.25), 1e-12, "1 - (almost 1): absolute");
    }

    // python3: K = [[1, .8, .3], [.8, 1, .5], [.3, .5, 1]]; ev = np.linalg.eigvals(K) + 1e-5;
    //   np.sum(np.log(ev) + 1 / ev)
    @Test
    void aLayersScoreIsTheReferenceCodes() {
        assertEquals(6.421861992625953, LayerScores.score(new double[][]{{1, 0.8, 0.3}, {0.8, 1, 0.5},
                {0.3, 0.5, 1}}), 1e-12);
    }

    @Test
    void layersAreRankedByTheRowWeightedConsensusAndTheRatioSetsHowMany() {
        // two devices of 1 and 3 rows, a 4-layer model (the last layer is never scored)
        int[] order = LayerScores.order(List.of(new double[]{4, 1, 2}, new double[]{0, 3, 2}), new int[]{1, 3}, 4);
        assertArrayEquals(new int[]{1, 2, 0, 3}, order, "consensus 1.0, 2.5, 2.0, 0");
        assertArrayEquals(new int[]{1, 2}, LayerScores.select(order, 0.5));
        assertArrayEquals(new int[]{0, 1, 2}, LayerScores.select(order, 0.51));
        assertArrayEquals(new int[]{1}, LayerScores.select(order, 0.0), "at least one layer");
    }

    @Test
    void lanczosRecoversTheSpectrumOfAKnownMatrix() {
        int n = 12;
        double[][] a = new double[n][n];
        double[] spectrum = new double[n];
        for (int i = 0; i < n; i++) {
            spectrum[i] = (i - 3) * 0.25;
            a[i][i] = spectrum[i];
        }
        // a rotation mixes the axes so that the start vector does not see the eigenvectors directly
        for (int i = 0; i + 1 < n; i += 2) {
            double c = Math.cos(0.3 * i + 0.2);
            double s = Math.sin(0.3 * i + 0.2);
            double p = a[i][i];
            double q = a[i + 1][i + 1];
            a[i][i] = c * c * p + s * s * q;
            a[i + 1][i + 1] = s * s * p + c * c * q;
            a[i][i + 1] = a[i + 1][i] = c * s * (p - q);
        }
        Lanczos lanczos = new Lanczos(n, n, Rng.of(3L, Purpose.FEDPEPTAO_LANCZOS, 0));
        for (double[] v = lanczos.pending(); v != null; v = lanczos.pending()) {
            double[] hv = new double[n];
            for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) hv[i] += a[i][j] * v[j];
            lanczos.tell(hv);
        }
        double[] ritz = lanczos.eigenvalues();
        Arrays.sort(ritz);
        for (int i = 0; i < n; i++) assertEquals(spectrum[i], ritz[i], 1e-5, "Ritz value " + i);
        assertEquals(1.0, Arrays.stream(lanczos.weights()).sum(), 1e-9);
    }
}
