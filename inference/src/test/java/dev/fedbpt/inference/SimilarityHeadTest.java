package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SimilarityHeadTest {
    private static final int CLS = 101;
    private static final int SEP = 102;

    @Test
    void aPairRowsInputBeginsAfterItsContextsSeparator() {
        assertEquals(1, Pooling.inputStart(new int[] {CLS, 5, 6, SEP}, SEP), "a single text");
        assertEquals(1, Pooling.inputStart(new int[] {CLS, SEP}, SEP), "an empty text");
        assertEquals(3, Pooling.inputStart(new int[] {CLS, 5, SEP, 7, 8, SEP}, SEP), "context 5, input 7 8");
    }

    @Test
    void aSingleRowIsPooledOverAllItsTokensAndAPairRowOverClsAndItsInput() {
        // Two rows of one hidden unit, one prompt vector each; a position's output is its own index (prompt: -1).
        int[][] tokens = {{CLS, 5, 6, SEP}, {CLS, 5, SEP, 7, 8, SEP}};
        int seq = 7;
        EncodedBatch batch = new EncodedBatch(2, seq, 1, null, null, new int[] {5, 7}, new int[] {1, 1}, tokens);
        float[] output = new float[2 * seq];
        for (int r = 0; r < 2; r++) {
            for (int i = 0; i < tokens[r].length; i++) {
                output[r * seq + batch.positionOf(r, i)] = i;
            }
            output[r * seq + 1] = -1;
        }
        assertArrayEquals(new double[] {(0 + 1 + 2 + 3) / 4.0}, SimilarityHead.pool(output, 1, batch, 0, SEP));
        assertArrayEquals(new double[] {(0 + 3 + 4 + 5) / 4.0}, SimilarityHead.pool(output, 1, batch, 1, SEP),
                "[CLS], 7, 8 and the final [SEP]; not the context 5 [SEP] nor the prompt");
    }

    @Test
    void clsPoolingTakesTheClsVectorAlone() {
        int[][] tokens = {{CLS, 5, 6, SEP}, {CLS, 5, SEP, 7, 8, SEP}};
        int seq = 7;
        int width = 2;
        EncodedBatch batch = new EncodedBatch(2, seq, 1, null, null, new int[] {5, 7}, new int[] {1, 1}, tokens);
        float[] output = new float[2 * seq * width];
        for (int r = 0; r < 2; r++) {
            for (int i = 0; i < tokens[r].length; i++) {
                int off = (r * seq + batch.positionOf(r, i)) * width;
                output[off] = 10 * r + i + 1;
                output[off + 1] = -(10 * r + i + 1);
            }
        }
        assertArrayEquals(new double[] {1, -1}, SimilarityHead.pool(output, width, batch, 0, SEP, Pooling.CLS, 0));
        assertArrayEquals(new double[] {11, -11}, SimilarityHead.pool(output, width, batch, 1, SEP, Pooling.CLS, 0));
        assertArrayEquals(SimilarityHead.pool(output, width, batch, 1, SEP),
                SimilarityHead.pool(output, width, batch, 1, SEP, Pooling.MEAN, 0));
        assertThrows(IllegalArgumentException.class,
                () -> SimilarityHead.pool(output, width, batch, 0, SEP, Pooling.DEFAULT, 0));
    }

    @Test
    void aTokenPromptIsLeftOutOfTheMeanUnlessTheHeadPoolsIt() {
        // Row 0: [CLS], a two-token prompt 900 901, the text 5 6, [SEP]; row 1 the same text without a prompt.
        int[][] tokens = {{CLS, 900, 901, 5, 6, SEP}, {CLS, 5, 6, SEP}};
        int seq = 6;
        EncodedBatch batch = new EncodedBatch(2, seq, 1, null, null, new int[] {6, 4}, new int[] {0, 0}, tokens)
                .withTokenPrompts(new int[] {2, 0});
        float[] output = new float[2 * seq];
        for (int i = 0; i < tokens[0].length; i++) output[batch.positionOf(0, i)] = i;
        for (int i = 0; i < tokens[1].length; i++) output[seq + batch.positionOf(1, i)] = i == 0 ? 0 : i + 2;
        assertArrayEquals(new double[] {(0 + 3 + 4 + 5) / 4.0},
                SimilarityHead.pool(output, 1, batch, 0, SEP, Pooling.MEAN, 2), "[CLS], 5, 6, [SEP]");
        assertArrayEquals(SimilarityHead.pool(output, 1, batch, 1, SEP),
                SimilarityHead.pool(output, 1, batch, 0, SEP, Pooling.MEAN, 2), "as the row without the prompt");
        assertArrayEquals(new double[] {(0 + 1 + 2 + 3 + 4 + 5) / 6.0},
                SimilarityHead.pool(output, 1, batch, 0, SEP, Pooling.MEAN, 0), "pooled with the sentence");
        assertArrayEquals(new int[] {0, 3, 4, 5}, Pooling.MEAN.pooledIndices(tokens[0], SEP, 2));
        assertArrayEquals(new int[] {0}, Pooling.CLS.pooledIndices(tokens[0], SEP, 2));

        // Two hidden units: the text's positions point to label 0, the prompt's (five times longer) to label 1.
        int width = 2;
        float[] wide = new float[2 * seq * width];
        for (int i = 0; i < tokens[0].length; i++) {
            boolean prompt = i == 1 || i == 2;
            wide[batch.positionOf(0, i) * width + (prompt ? 1 : 0)] = prompt ? 5 : 1;
        }
        double[][] labels = {{1, 0}, {0, 1}};
        float[] left = new SimilarityHead(labels, 1, SEP, Pooling.MEAN, false).scores(wide, width, batch)[0];
        float[] pooled = new SimilarityHead(labels, 1, SEP, Pooling.MEAN, true).scores(wide, width, batch)[0];
        assertArrayEquals(new float[] {1, 0}, left, "the sentence alone");
        assertTrue(pooled[1] > pooled[0], "the prompt outweighs the sentence: " + pooled[0] + ", " + pooled[1]);
    }
}
