package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The bundled all-MiniLM-L6-v2 with its linear layers in static int8, against itself and against fp32. */
class Int8PromptModelTest {
    static final int D = 50;
    static final PromptSpec PROMPT = new PromptSpec(10, D, 42L);
    static final HeadSpec HEAD = new HeadSpec.Similarity(List.of("It was terrible.", "It was great."));
    static final String[] CALIBRATION = {"a gripping, funny and moving film", "dull and far too long",
            "the actors carry a thin plot with charm", "I walked out after an hour", "one of the best films this year",
            "a mess from start to finish", "quietly devastating", "not worth the ticket", "warm, witty and wise",
            "the script is lazy and the jokes fall flat", "beautifully shot", "an ordinary film",
            "it never finds its footing", "a triumph", "painfully slow", "smart and surprising"};
    static final String[] CLEAR = {"a wonderful, moving and funny film", "a dull, lifeless and boring mess",
            "great acting and a brilliant script", "terrible, I hated every minute", "an absolute delight",
            "awful and stupid", "superb", "a waste of time"};

    static PromptModel fp32;
    static PromptModel int8;

    static ModelOptions int8Options(PromptModel tokens) {
        List<int[]> rows = new ArrayList<>();
        for (String t : CALIBRATION) rows.add(tokens.encode(t));
        return ModelOptions.defaults().withIntraOpThreads(1).withInt8(new ModelOptions.Int8(rows, 7L));
    }

    @BeforeAll
    static void load() throws Exception {
        fp32 = PromptModel.load(ModelSource.bundled(), PROMPT, HEAD, ModelOptions.defaults().withIntraOpThreads(1));
        int8 = PromptModel.load(ModelSource.bundled(), PROMPT, HEAD, int8Options(fp32));
    }

    @AfterAll
    static void close() {
        if (fp32 != null) fp32.close();
        if (int8 != null) int8.close();
    }

    static double[] gaussian(SplittableRandom rnd) {
        double[] z = new double[D];
        for (int i = 0; i < D; i++) z[i] = rnd.nextGaussian();
        return z;
    }

    @Test
    void theLinearLayersComputeInInt8AndTheScoresStayCloseToFp32() {
        assertTrue(int8.int8());
        assertFalse(fp32.int8());
        List<ScoreRow> rows = new ArrayList<>();
        for (String t : CLEAR) rows.add(ScoreRow.withoutPrompt(fp32.encode(t)));
        float[][] a = fp32.score(rows);
        float[][] b = int8.score(rows);
        double max = 0;
        for (int r = 0; r < a.length; r++) {
            assertEquals(a[r][1] > a[r][0], b[r][1] > b[r][0], "the same class for '" + CLEAR[r] + "'");
            for (int c = 0; c < 2; c++) max = Math.max(max, Math.abs(a[r][c] - b[r][c]));
            assertFalse(a[r][0] == b[r][0] && a[r][1] == b[r][1], "int8 computes other sums than fp32");
        }
        System.out.println("MiniLM int8 against fp32: max abs score difference " + max + " (scores are cos / 0.05)");
        assertTrue(max < 2.0, "max abs score difference " + max);
    }

    @Test
    void aRowsInt8ScoresDoNotDependOnItsBatchPaddingThreadsOrWorker() throws Exception {
        SplittableRandom rnd = new SplittableRandom(5);
        ScoreRow target = new ScoreRow(gaussian(rnd), int8.encode("The plot was thin but the acting saved it."));
        ScoreRow bare = ScoreRow.withoutPrompt(target.tokenIds());
        float[][] alone = {int8.score(List.of(target))[0], int8.score(List.of(bare))[0]};

        List<ScoreRow> big = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            if (i == 13) big.add(target);
            else if (i == 41) big.add(bare);
            else big.add(new ScoreRow(i % 3 == 0 ? null : gaussian(rnd),
                    int8.encode("row " + i + " " + "more words ".repeat(i % 7))));
        }
        float[][] inBatch = int8.score(big);
        assertArrayEquals(alone[0], inBatch[13], "in a batch of 64");
        assertArrayEquals(alone[1], inBatch[41], "in a batch of 64, no prompt");

        float[][] padded = int8.score(List.of(target, new ScoreRow(gaussian(rnd), int8.encode("long ".repeat(120))),
                bare));
        assertArrayEquals(alone[0], padded[0], "padded to a 130-token row");
        assertArrayEquals(alone[1], padded[2], "padded to a 130-token row, no prompt");

        // another worker's model, calibrated from the same rows, on two threads
        try (PromptModel other = PromptModel.load(ModelSource.bundled(), PROMPT, HEAD,
                int8Options(fp32).withIntraOpThreads(2))) {
            float[][] scores = other.score(big);
            for (int i = 0; i < big.size(); i++) assertArrayEquals(inBatch[i], scores[i], "another model, row " + i);
        }
    }
}
