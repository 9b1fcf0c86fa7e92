package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The bundled BAAI/bge-small-en-v1.5, loaded once for the class, with its own pooling ([CLS]). */
class BgeSmallPromptModelTest {
    static final int D = 50;
    static final int N_PROMPT = 10;
    static PromptModel model;

    @BeforeAll
    static void load() throws Exception {
        model = PromptModel.load(ModelSource.bundled("bge-small-en-v1.5"), new PromptSpec(N_PROMPT, D, 42L),
                new HeadSpec.Similarity(List.of("It was terrible.", "It was great.")), ModelOptions.defaults());
    }

    @AfterAll
    static void close() {
        if (model != null) model.close();
    }

    @Test
    void modelFactsAndRewriteCheck() {
        assertEquals(30522, model.vocabularySize());
        assertEquals(384, model.hiddenSize());
        assertEquals(12, model.layerCount());
        assertEquals(2, model.numClasses());
        assertEquals(103, model.maskTokenId());
        assertTrue(model.rewriteMaxAbsDiff() <= 1e-5, "diff " + model.rewriteMaxAbsDiff());
        assertEquals(512 - N_PROMPT, model.maxRowTokens());
        assertArrayEquals(new int[] {101, 7592, 2088, 102}, model.encode("hello world"));
        System.out.println("bge-small rewrite max abs diff = " + model.rewriteMaxAbsDiff());
    }

    @Test
    void similarityHeadIsSensible() {
        float[][] s = model.score(List.of(
                ScoreRow.withoutPrompt(model.encode("This movie was wonderful, I loved it.")),
                ScoreRow.withoutPrompt(model.encode("This movie was awful, I hated it."))));
        assertTrue(s[0][1] > s[0][0], Arrays.toString(s[0]));
        assertTrue(s[1][0] > s[1][1], Arrays.toString(s[1]));
        // a label description scored against itself: cosine 1, so 1 / 0.05
        float[] self = model.score(List.of(ScoreRow.withoutPrompt(model.encode("It was great."))))[0];
        assertEquals(20.0, self[1], 1e-4);
    }

    @Test
    void aPromptChangesTheScoresAndARowDoesNotDependOnItsBatch() {
        double[] z = new double[D];
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < D; i++) z[i] = rnd.nextDouble(-1, 1);
        int[] row = model.encode("The plot was thin but the acting saved it.");
        float[][] alone = model.score(List.of(new ScoreRow(z, row), ScoreRow.withoutPrompt(row)));
        assertFalse(Arrays.equals(alone[0], alone[1]), "the prompt must reach the [CLS] embedding");
        for (float v : alone[0]) assertTrue(Float.isFinite(v));
        float[][] batched = model.score(List.of(ScoreRow.withoutPrompt(model.encode("Short.")), new ScoreRow(z, row),
                ScoreRow.withoutPrompt(model.encode("A much longer row of text, padded less than the others."))));
        assertArrayEquals(alone[0], batched[1]);
    }
}
