package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The bundled all-MiniLM-L6-v2, loaded once for the class. */
class MiniLmPromptModelTest {
    static final int D = 50;
    static final int N_PROMPT = 10;
    static PromptModel model;

    @BeforeAll
    static void load() throws Exception {
        model = PromptModel.load(ModelSource.bundled(), new PromptSpec(N_PROMPT, D, 42L),
                new HeadSpec.Similarity(List.of("It was terrible.", "It was great.")), ModelOptions.defaults());
    }

    @AfterAll
    static void close() {
        if (model != null) model.close();
    }

    @Test
    void forwardFlopsCountTheSixLayersOfTheGraph() {
        // Per layer: Q, K, V, output (384 x 384 each) and the feed-forward pair (384 x 1536, 1536 x 384).
        double perLayer = 2.0 * (4 * 384 * 384 + 2 * 384 * 1536);
        assertEquals(6 * perLayer, model.forwardFlops().linearPerToken(), 1e-9 * perLayer);
        assertEquals(6, model.forwardFlops().layers());
        assertEquals(384, model.forwardFlops().hidden());
    }

    @Test
    void modelFactsAndRewriteCheck() {
        assertEquals(30522, model.vocabularySize());
        assertEquals(384, model.hiddenSize());
        assertEquals(6, model.layerCount());
        assertEquals(2, model.numClasses());
        assertEquals(103, model.maskTokenId());
        assertArrayEquals(new int[] {0, 100, 101, 102, 103}, model.specialTokenIds());
        assertTrue(model.rewriteMaxAbsDiff() <= 1e-5, "diff " + model.rewriteMaxAbsDiff());
        assertEquals(512 - N_PROMPT, model.maxRowTokens());
        System.out.println("MiniLM rewrite max abs diff = " + model.rewriteMaxAbsDiff());
    }

    @Test
    void anEmbeddingsPromptEqualToTheProjectionOfZScoresExactlyAsZ() {
        double[] z = new SplittableRandom(5).doubles(D, -1, 1).toArray();
        float[] expanded = model.projection().expand(new double[][] {z})[0];
        int[] row = model.encode("A quiet, moving film.");
        float[][] viaZ = model.score(List.of(new ScoreRow(z, row)));
        float[][] viaEmbeddings = model.score(List.of(ScoreRow.withEmbeddings(expanded.clone(), row)));
        assertArrayEquals(viaZ[0], viaEmbeddings[0], 0f);
        // Embeddings of another length (here 3 vectors) go in as they are.
        float[] three = Arrays.copyOf(expanded, 3 * model.hiddenSize());
        float[][] shorter = model.score(List.of(ScoreRow.withEmbeddings(three, row)));
        assertFalse(Arrays.equals(viaZ[0], shorter[0]));
        IllegalArgumentException ragged = assertThrows(IllegalArgumentException.class,
                () -> model.score(List.of(ScoreRow.withEmbeddings(new float[model.hiddenSize() + 1], row))));
        assertTrue(ragged.getMessage().contains("not a multiple of the hidden size"), ragged.getMessage());
    }

    @Test
    void encodeAddsSpecialTokensWithoutPaddingAndTruncates() {
        int[] ids = model.encode("hello world");
        assertArrayEquals(new int[] {101, 7592, 2088, 102}, ids);
        int[] longRow = model.encode("word ".repeat(600));
        assertEquals(model.maxRowTokens(), longRow.length);
        assertEquals(101, longRow[0]);
        assertEquals(102, longRow[longRow.length - 1]);
    }

    @Test
    void similarityHeadIsSensible() {
        float[][] s = model.score(List.of(
                ScoreRow.withoutPrompt(model.encode("This movie was wonderful, I loved it.")),
                ScoreRow.withoutPrompt(model.encode("This movie was awful, I hated it."))));
        assertTrue(s[0][1] > s[0][0], Arrays.toString(s[0]));
        assertTrue(s[1][0] > s[1][1], Arrays.toString(s[1]));
        // scores are cosine / 0.05, so within [-20, 20]
        for (float[] r : s) for (float v : r) assertTrue(Math.abs(v) <= 20.0001f);
        // a label description scored against itself: cosine 1
        float[] self = model.score(List.of(ScoreRow.withoutPrompt(model.encode("It was great."))))[0];
        assertEquals(20.0, self[1], 1e-4);
    }

    @Test
    void rowScoresDoNotDependOnBatchOrPadding() {
        SplittableRandom rnd = new SplittableRandom(5);
        double[] z = gaussian(rnd);
        ScoreRow target = new ScoreRow(z, model.encode("The plot was thin but the acting saved it."));
        ScoreRow targetNoPrompt = ScoreRow.withoutPrompt(target.tokenIds());

        float[][] alone = model.score(List.of(target, targetNoPrompt));

        // batch of 32: other rows with other z, some without prompt, of various lengths, target in the middle
        List<ScoreRow> big = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            if (i == 13) big.add(target);
            else if (i == 21) big.add(targetNoPrompt);
            else big.add(new ScoreRow(i % 3 == 0 ? null : gaussian(rnd),
                    model.encode("row " + i + " " + "more words ".repeat(i % 7))));
        }
        float[][] inBatch = model.score(big);
        assertArrayEquals(alone[0], inBatch[13]);
        assertArrayEquals(alone[1], inBatch[21]);

        // padded longer: a much longer row forces ~100 padding positions after the target
        float[][] padded = model.score(List.of(target,
                new ScoreRow(z, model.encode("long ".repeat(120))), targetNoPrompt));
        assertArrayEquals(alone[0], padded[0]);
        assertArrayEquals(alone[1], padded[2]);
    }

    @Test
    void rowScoresDoNotDependOnTheThreadCount() throws Exception {
        SplittableRandom rnd = new SplittableRandom(11);
        List<ScoreRow> batch = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            batch.add(new ScoreRow(i % 4 == 0 ? null : gaussian(rnd),
                    model.encode("row " + i + " " + "other words ".repeat(i % 9))));
        }
        float[][] allCores = model.score(batch);
        for (int threads : new int[] {1, 2}) {
            try (PromptModel fewer = PromptModel.load(ModelSource.bundled(), new PromptSpec(N_PROMPT, D, 42L),
                    new HeadSpec.Similarity(List.of("It was terrible.", "It was great.")),
                    ModelOptions.defaults().withIntraOpThreads(threads))) {
                float[][] scores = fewer.score(batch);
                for (int i = 0; i < batch.size(); i++) {
                    assertArrayEquals(allCores[i], scores[i], threads + " thread(s), row " + i);
                }
            }
        }
    }

    @Test
    void promptIsInjectedAndEqualZShareOneExpansion() {
        SplittableRandom rnd = new SplittableRandom(9);
        int[] row = model.encode("An ordinary film.");
        double[] z1 = gaussian(rnd);
        double[] z1copy = z1.clone();
        double[] z2 = gaussian(rnd);
        float[][] s = model.score(List.of(new ScoreRow(z1, row), new ScoreRow(z1copy, row), new ScoreRow(z2, row),
                ScoreRow.withoutPrompt(row), new ScoreRow(new double[D], row)));
        assertArrayEquals(s[0], s[1]);
        assertFalse(Arrays.equals(s[0], s[2]));
        assertFalse(Arrays.equals(s[0], s[3]));
        // z = 0 gives n_prompt zero vectors: still a prompt (positions shift), so it differs from no prompt
        assertFalse(Arrays.equals(s[3], s[4]));
    }

    @Test
    void projectionScaleFollowsTheEmbeddingStd() {
        double std = model.embeddingStd();
        assertTrue(std > 0.01 && std < 1, "std_emb " + std);
        assertEquals(std / Math.sqrt(D), model.projectionEntryStd(), 1e-12);
        RandomProjection a = model.projection();
        double sum = 0;
        double sq = 0;
        int n = a.rows() * a.dimension();
        for (int r = 0; r < a.rows(); r++) {
            for (int c = 0; c < a.dimension(); c++) {
                double v = a.entry(r, c);
                sum += v;
                sq += v * v;
            }
        }
        double mean = sum / n;
        double emp = Math.sqrt(sq / n - mean * mean);
        assertEquals(model.projectionEntryStd(), emp, 0.01 * model.projectionEntryStd());
    }

    private static double[] gaussian(SplittableRandom rnd) {
        double[] z = new double[D];
        for (int i = 0; i < D; i++) z[i] = rnd.nextDouble() * 2 - 1;
        return z;
    }
}
