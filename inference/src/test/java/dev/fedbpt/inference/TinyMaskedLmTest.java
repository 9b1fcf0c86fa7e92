package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TinyMaskedLmTest {
    @TempDir
    static Path dir;
    static Path tokenizer;
    static PromptModel model;

    @BeforeAll
    static void load() throws Exception {
        tokenizer = TinyModels.writeTokenizer(dir);
        Path onnx = TinyModels.write(dir, TinyModels.Variant.MASKED_LM, 7);
        model = PromptModel.load(new ModelSource(onnx, tokenizer), new PromptSpec(3, 6, 11L),
                new HeadSpec.MaskedLm(List.of("bad", "great")), ModelOptions.defaults());
    }

    @AfterAll
    static void close() {
        if (model != null) model.close();
    }

    @Test
    void rewriteIsExactAndFactsAreRead() {
        assertEquals(0.0, model.rewriteMaxAbsDiff());
        assertEquals(TinyModels.VOCAB, model.vocabularySize());
        assertEquals(TinyModels.HIDDEN, model.hiddenSize());
        assertNull(model.layerCount());
        assertEquals(4, model.maskTokenId());
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, model.specialTokenIds());
        assertEquals(TinyModels.POSITIONS - 3, model.maxRowTokens());
        assertArrayEquals(new int[] {2, 5, 6, 4, 14, 3}, model.encode("It was [MASK] ."));
    }

    /** A closed model refuses to score rather than enter freed native memory; closing waits for a pass in flight. */
    @Test
    void aClosedModelRefusesToScoreAndClosesOnce() throws Exception {
        PromptModel own = PromptModel.load(new ModelSource(TinyModels.write(dir, TinyModels.Variant.MASKED_LM, 7),
                tokenizer), new PromptSpec(3, 6, 11L), new HeadSpec.MaskedLm(List.of("bad", "great")),
                ModelOptions.defaults());
        List<ScoreRow> rows = List.of(ScoreRow.withoutPrompt(own.encode("the movie was [MASK] .")));
        Thread scoring = new Thread(() -> {
            for (int i = 0; i < 200; i++) {
                try {
                    own.score(rows);
                } catch (IllegalStateException closedMeanwhile) {
                    return;
                }
            }
        });
        scoring.start();
        own.close();
        scoring.join();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> own.score(rows));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        own.close();
    }

    @Test
    void scoresAreTheLabelLogitsAtTheMask() {
        int[] row = model.encode("the movie was [MASK] .");
        float[][] s = model.score(List.of(ScoreRow.withoutPrompt(row)));
        assertEquals(1, s.length);
        assertEquals(2, s[0].length);
        // same computation by hand on the rewritten graph's raw output
        EncodedBatch b = model.prepare(List.of(ScoreRow.withoutPrompt(row)));
        float[] out = model.forward(b);
        int maskPos = 4;
        assertEquals(out[maskPos * TinyModels.VOCAB + 8], s[0][0]);   // "bad" = id 8
        assertEquals(out[maskPos * TinyModels.VOCAB + 9], s[0][1]);   // "great" = id 9
    }

    @Test
    void promptChangesScoresAndRowsAreIndependentOfTheBatch() {
        double[] z = {0.5, -1, 2, 0.1, -0.3, 1.2};
        int[] row = model.encode("it was [MASK] .");
        float[] alone = model.score(List.of(new ScoreRow(z, row)))[0];
        float[] noPrompt = model.score(List.of(ScoreRow.withoutPrompt(row)))[0];
        assertFalse(java.util.Arrays.equals(alone, noPrompt));
        List<ScoreRow> rows = new ArrayList<>();
        rows.add(ScoreRow.withoutPrompt(model.encode("[MASK] film plot acting very not good bad great")));
        rows.add(new ScoreRow(new double[] {1, 1, 1, 1, 1, 1}, model.encode("a [MASK]")));
        rows.add(new ScoreRow(z, row));
        float[][] mixed = model.score(rows);
        assertArrayEquals(alone, mixed[2]);
    }

    @Test
    void rowWithoutMaskIsAnError() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> model.score(List.of(ScoreRow.withoutPrompt(model.encode("it was good")))));
        assertTrue(e.getMessage().contains("no [MASK]"), e.getMessage());
    }

    @Test
    void badRowsAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> model.score(List.of(new ScoreRow(new double[5], model.encode("[MASK]")))));
        assertThrows(IllegalArgumentException.class,
                () -> model.score(List.of(ScoreRow.withoutPrompt(new int[] {2, 4, 77, 3}))));
        int[] tooLong = new int[TinyModels.POSITIONS];
        tooLong[1] = 4;
        assertThrows(IllegalArgumentException.class,
                () -> model.score(List.of(new ScoreRow(new double[6], tooLong))));
    }

    @Test
    void encodeTruncatesKeepingSep() {
        int[] ids = model.encode("w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 w31 w32 w33 w34 w35 w36");
        assertEquals(model.maxRowTokens(), ids.length);
        assertEquals(2, ids[0]);
        assertEquals(3, ids[ids.length - 1]);
    }

    @Test
    void multiTokenLabelWordIsRefused() {
        var e = assertThrows(ModelLoadException.class, () -> PromptModel.load(
                new ModelSource(dir.resolve("tiny-masked_lm.onnx"), tokenizer), new PromptSpec(3, 6, 11L),
                new HeadSpec.MaskedLm(List.of("bad", "very good")), ModelOptions.defaults()));
        assertTrue(e.getMessage().contains("label word 'very good' is 2 tokens"), e.getMessage());
    }

    @Test
    void similarityHeadOnLogitsIsRefused() {
        var e = assertThrows(ModelLoadException.class, () -> PromptModel.load(
                new ModelSource(dir.resolve("tiny-masked_lm.onnx"), tokenizer), new PromptSpec(3, 6, 11L),
                new HeadSpec.Similarity(List.of("bad", "good")), ModelOptions.defaults()));
        assertTrue(e.getMessage().contains("similarity head needs hidden states"), e.getMessage());
    }

    @Test
    void tinyHiddenStatesWorkWithSimilarityHead() throws Exception {
        Path onnx = TinyModels.write(dir, TinyModels.Variant.HIDDEN_STATES, 3);
        try (PromptModel m = PromptModel.load(new ModelSource(onnx, tokenizer), new PromptSpec(2, 4, 5L),
                new HeadSpec.Similarity(List.of("it was bad .", "it was great ."), 0.5), ModelOptions.defaults())) {
            assertEquals(0.0, m.rewriteMaxAbsDiff());
            float[][] s = m.score(List.of(ScoreRow.withoutPrompt(m.encode("it was great ."))));
            assertEquals(1.0 / 0.5, s[0][1], 1e-5); // identical text: cosine 1
        }
    }

    @Test
    void graphRefusals() throws Exception {
        Path noGather = TinyModels.write(dir, TinyModels.Variant.NO_GATHER, 1);
        var e1 = assertThrows(ModelLoadException.class, () -> load(noGather));
        assertTrue(e1.getMessage().contains("no embedding Gather reads input_ids"), e1.getMessage());
        assertTrue(e1.getMessage().contains("Cast 'cast_ids'"), e1.getMessage());

        Path twice = TinyModels.write(dir, TinyModels.Variant.IDS_TWICE, 1);
        var e2 = assertThrows(ModelLoadException.class, () -> load(twice));
        assertTrue(e2.getMessage().contains("input_ids has consumers other than one embedding Gather"), e2.getMessage());
        assertTrue(e2.getMessage().contains("Cast 'ids_cast_extra'"), e2.getMessage());

        Path garbage = dir.resolve("garbage.onnx");
        Files.write(garbage, "this is not a model, just text\n".repeat(20).getBytes());
        var e3 = assertThrows(ModelLoadException.class, () -> load(garbage));
        assertTrue(e3.getMessage().contains(garbage.toString()), e3.getMessage());

        Path missing = dir.resolve("missing.onnx");
        var e4 = assertThrows(ModelLoadException.class, () -> load(missing));
        assertTrue(e4.getMessage().contains("not found") && e4.getMessage().contains(missing.toString()), e4.getMessage());
    }

    private static PromptModel load(Path onnx) throws ModelLoadException {
        return PromptModel.load(new ModelSource(onnx, tokenizer), new PromptSpec(3, 6, 11L),
                new HeadSpec.MaskedLm(List.of("bad", "great")), ModelOptions.defaults());
    }
}
