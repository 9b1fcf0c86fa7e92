package dev.fedbpt.engine.method;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PromptTest {
    @Test
    void aTokenPromptGoesRightAfterTheRowsFirstToken() {
        Prompt.Tokens prompt = new Prompt.Tokens(new int[] {7, 8});
        assertArrayEquals(new int[] {101, 7, 8, 5, 6, 102}, prompt.insertInto(new int[] {101, 5, 6, 102}));
        assertArrayEquals(new int[] {101, 7, 8}, prompt.insertInto(new int[] {101}));
        assertThrows(IllegalArgumentException.class, () -> prompt.insertInto(new int[0]));
        assertThrows(IllegalArgumentException.class, () -> new Prompt.Tokens(new int[] {3, -1}));
        assertThrows(IllegalArgumentException.class, () -> new Prompt.Tokens(new int[0]));
    }

    @Test
    void embeddingsFlattenRowByRowAndMustShareOneWidth() {
        Prompt.Embeddings prompt = new Prompt.Embeddings(new float[][] {{1, 2, 3}, {4, 5, 6}});
        assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, prompt.flattened());
        assertThrows(IllegalArgumentException.class, () -> new Prompt.Embeddings(new float[][] {{1, 2}, {3}}));
        // The shape is part of the fingerprint: 2 x 3 and 3 x 2 of the same numbers differ.
        assertNotEquals(prompt.sha256(), new Prompt.Embeddings(new float[][] {{1, 2}, {3, 4}, {5, 6}}).sha256());
    }

    @Test
    void fingerprintsAreFixedBytesOfTheValues() {
        assertEquals(64, new Prompt.Continuous(new double[] {1.0}).sha256().length());
        assertEquals(new Prompt.Continuous(new double[] {1.0, -0.0}).sha256(),
                new Prompt.Continuous(new double[] {1.0, -0.0}).sha256());
        assertNotEquals(new Prompt.Continuous(new double[] {0.0}).sha256(),
                new Prompt.Continuous(new double[] {-0.0}).sha256());
        assertNotEquals(new Prompt.Tokens(new int[] {1, 2}).sha256(), new Prompt.Tokens(new int[] {2, 1}).sha256());
    }
}
