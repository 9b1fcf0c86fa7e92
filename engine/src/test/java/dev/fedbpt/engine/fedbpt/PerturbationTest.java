package dev.fedbpt.engine.fedbpt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.data.Vocabulary;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PerturbationTest {
    private static final Vocabulary VOCAB = new Vocabulary(50, new int[] {0, 1, 2, 3});

    private static List<int[]> rows(int count, int length) {
        List<int[]> rows = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            int[] row = new int[length];
            row[0] = 0;          // [CLS]
            row[length - 1] = 2; // [SEP]
            for (int i = 1; i < length - 1; i++) {
                row[i] = i == 3 ? 3 : 4 + (r * 7 + i) % 46; // 3 = [MASK]
            }
            rows.add(row);
        }
        return rows;
    }

    @Test
    void keepsSpecialTokensAndReplacesAboutTheRate() {
        List<int[]> in = rows(400, 20);
        List<int[]> out = Perturbation.perturb(in, VOCAB, 0.3, 7, 1, 2, 3);
        int eligible = 0;
        int changedOrRedrawn = 0;
        for (int r = 0; r < in.size(); r++) {
            for (int i = 0; i < 20; i++) {
                int a = in.get(r)[i];
                int b = out.get(r)[i];
                if (VOCAB.isSpecial(a)) {
                    assertEquals(a, b, "special token replaced");
                } else {
                    eligible++;
                    assertFalse(VOCAB.isSpecial(b), "special token drawn as replacement");
                    if (a != b) {
                        changedOrRedrawn++;
                    }
                }
            }
        }
        // P(changed) = r * (1 - 1/46): a replacement can redraw the same token.
        double expected = 0.3 * (1 - 1.0 / 46);
        double observed = changedOrRedrawn / (double) eligible;
        assertEquals(expected, observed, 0.02, "observed replacement share");
    }

    @Test
    void zeroRateIsIdentityAndSeedsReproduce() {
        List<int[]> in = rows(10, 12);
        List<int[]> same = Perturbation.perturb(in, VOCAB, 0.0, 7, 0, 0, 0);
        for (int r = 0; r < in.size(); r++) {
            assertArrayEquals(in.get(r), same.get(r));
        }
        List<int[]> a = Perturbation.perturb(in, VOCAB, 0.5, 7, 2, 1, 4);
        List<int[]> b = Perturbation.perturb(in, VOCAB, 0.5, 7, 2, 1, 4);
        List<int[]> c = Perturbation.perturb(in, VOCAB, 0.5, 7, 2, 1, 5);
        boolean anyDifferent = false;
        for (int r = 0; r < in.size(); r++) {
            assertArrayEquals(a.get(r), b.get(r));
            anyDifferent |= !java.util.Arrays.equals(a.get(r), c.get(r));
        }
        assertTrue(anyDifferent, "a new iteration must get a fresh mask");
    }

    @Test
    void nonSpecialTokensEnumerateTheRest() {
        Vocabulary v = new Vocabulary(8, new int[] {5, 0, 2});
        int[] got = new int[v.nonSpecialCount()];
        for (int k = 0; k < got.length; k++) {
            got[k] = v.nonSpecialToken(k);
        }
        assertArrayEquals(new int[] {1, 3, 4, 6, 7}, got);
    }
}
