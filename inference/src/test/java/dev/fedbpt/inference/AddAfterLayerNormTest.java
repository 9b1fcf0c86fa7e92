package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.*;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prompt injection {@code add-after-layernorm} on the bundled all-MiniLM-L6-v2: placeholder tokens after [CLS], A·z
 * added to the embedding LayerNorm's output at their positions. Compared with the same model in {@code prepend} mode.
 */
class AddAfterLayerNormTest {
    static final int D = 50;
    static final int N_PROMPT = 10;
    static PromptModel add;
    static PromptModel prepend;

    @BeforeAll
    static void load() throws Exception {
        HeadSpec head = new HeadSpec.Similarity(List.of("It was terrible.", "It was great."));
        add = PromptModel.load(ModelSource.bundled(),
                new PromptSpec(N_PROMPT, D, 42L, PromptSpec.Injection.ADD_AFTER_LAYERNORM), head,
                ModelOptions.defaults());
        prepend = PromptModel.load(ModelSource.bundled(), new PromptSpec(N_PROMPT, D, 42L), head,
                ModelOptions.defaults());
    }

    @AfterAll
    static void close() {
        if (add != null) add.close();
        if (prepend != null) prepend.close();
    }

    @Test
    void rewriteCheckPassesWithPlaceholdersAndTheRowBudgetIsThatOfPrepend() {
        // the load-time check ran two probes with placeholders and prompt_add = 0 against the original graph
        assertTrue(add.rewriteMaxAbsDiff() <= 1e-5, "diff " + add.rewriteMaxAbsDiff());
        assertEquals(prepend.maxRowTokens(), add.maxRowTokens());
        assertArrayEquals(new int[] {1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009},
                add.promptSpec().placeholderIds());
        for (int id : add.promptSpec().placeholderIds()) {
            for (int special : add.specialTokenIds()) assertNotEquals(special, id);
        }
        System.out.println("MiniLM add-after-layernorm rewrite max abs diff = " + add.rewriteMaxAbsDiff());
    }

    @Test
    void theAddSitsRightAfterTheEmbeddingLayerNorm() throws Exception {
        ModelProto original = OnnxModelReader.parse(OnnxModelReader.readBytes(ModelSource.bundled()), "minilm");
        assertAddAfterEmbeddingLayerNorm(GraphRewriter.rewrite(original, "minilm",
                PromptSpec.Injection.ADD_AFTER_LAYERNORM).model());
        // prepend is the plain rewrite, unchanged
        assertEquals(GraphRewriter.rewrite(original, "minilm").model(),
                GraphRewriter.rewrite(original, "minilm", PromptSpec.Injection.PREPEND).model());
    }

    @Test
    void zeroPromptEqualsThePlainModelOnRowsThatHoldThePlaceholders() throws Exception {
        List<int[]> texts = List.of(add.encode("The plot was thin but the acting saved it."),
                add.encode("An ordinary film."), add.encode("word ".repeat(40)));
        List<ScoreRow> zeroPrompt = new ArrayList<>();
        List<ScoreRow> placeholdersAsText = new ArrayList<>();
        for (int[] t : texts) {
            zeroPrompt.add(new ScoreRow(new double[D], t));
            placeholdersAsText.add(ScoreRow.withoutPrompt(withPlaceholders(t)));
        }
        EncodedBatch a = add.prepare(zeroPrompt);
        float[] outAdd = add.forward(a).clone();
        int width = add.hiddenSize();

        // 1. the prepend-mode model (no Add node) on the rows with the placeholder ids written in
        EncodedBatch p = prepend.prepare(placeholdersAsText);
        assertEquals(a.seq(), p.seq());
        float[] outPrepend = prepend.forward(p);
        double max = maxAbsDiff(outAdd, outPrepend, a, width);
        assertTrue(max <= 1e-6, "add (z = 0) vs plain rewrite: " + max);

        // 2. the original graph on input_ids
        byte[] bytes = OnnxModelReader.readBytes(ModelSource.bundled());
        try (OnnxSession original = OnnxSession.load(bytes, "original", ModelOptions.defaults());
             NDManager manager = original.newCallManager()) {
            int n = a.batch() * a.seq();
            long[] ids = new long[n];
            long[] mask = new long[n];
            for (int r = 0; r < a.batch(); r++) {
                int[] row = withPlaceholders(texts.get(r));
                for (int i = 0; i < row.length; i++) {
                    ids[r * a.seq() + i] = row[i];
                    mask[r * a.seq() + i] = 1;
                }
            }
            NDList in = new NDList();
            for (String name : List.of("input_ids", "attention_mask", "token_type_ids")) {
                NDArray x = manager.create(switch (name) {
                    case "input_ids" -> ids;
                    case "attention_mask" -> mask;
                    default -> new long[n];
                }, new Shape(a.batch(), a.seq()));
                x.setName(name);
                in.add(x);
            }
            float[] reference = original.forward(in).get(0).toFloatArray();
            double maxOriginal = maxAbsDiff(outAdd, reference, a, width);
            assertTrue(maxOriginal <= 1e-5, "add (z = 0) vs original graph: " + maxOriginal);
            System.out.println("z = 0: max abs diff vs plain rewrite " + max + ", vs original graph " + maxOriginal);
        }
    }

    @Test
    void promptAddHoldsAzAtThePlaceholderPositionsOnly() {
        SplittableRandom rnd = new SplittableRandom(3);
        double[] z = gaussian(rnd);
        int[] shortRow = add.encode("Good.");
        int[] longRow = add.encode("long ".repeat(30));
        List<ScoreRow> rows = List.of(new ScoreRow(z, shortRow), ScoreRow.withoutPrompt(shortRow),
                new ScoreRow(z, longRow));
        EncodedBatch b = add.prepare(rows);
        float[] az = add.projection().expand(new double[][] {z})[0];
        int h = add.hiddenSize();
        for (int r = 0; r < rows.size(); r++) {
            boolean prompted = rows.get(r).z() != null;
            assertEquals(prompted ? N_PROMPT : 0, b.promptLengths()[r]);
            for (int pos = 0; pos < b.seq(); pos++) {
                boolean placeholder = prompted && pos >= 1 && pos <= N_PROMPT;
                for (int k = 0; k < h; k++) {
                    float v = b.promptAdd().get((r * b.seq() + pos) * h + k);
                    assertEquals(placeholder ? az[(pos - 1) * h + k] : 0f, v, "row " + r + " pos " + pos);
                }
            }
        }
        // the placeholder positions hold the placeholder tokens' word embeddings, as a plain row with them would
        EncodedBatch plain = prepend.prepare(List.of(ScoreRow.withoutPrompt(withPlaceholders(shortRow))));
        EncodedBatch again = add.prepare(List.of(new ScoreRow(z, shortRow)));
        assertEquals(plain.seq(), again.seq());
        for (int i = 0; i < plain.seq() * h; i++) assertEquals(plain.embeds().get(i), again.embeds().get(i));
    }

    @Test
    void promptChangesScoresAndAConstantShiftIsNotNormalisedAway() {
        SplittableRandom rnd = new SplittableRandom(9);
        int[] row = add.encode("An ordinary film.");
        double[] z1 = gaussian(rnd);
        double[] z2 = gaussian(rnd);
        float[][] s = add.score(List.of(new ScoreRow(z1, row), new ScoreRow(z1.clone(), row), new ScoreRow(z2, row),
                new ScoreRow(new double[D], row), ScoreRow.withoutPrompt(row)));
        assertArrayEquals(s[0], s[1]);
        assertFalse(Arrays.equals(s[0], s[2]));
        assertFalse(Arrays.equals(s[0], s[3]));
        // z = 0 still has the placeholder tokens, so it differs from no prompt
        assertFalse(Arrays.equals(s[3], s[4]));

        // a constant vector added at one placeholder position would vanish before the LayerNorm (it subtracts the
        // mean); after it, it changes the output
        EncodedBatch b = add.prepare(List.of(new ScoreRow(new double[D], row)));
        float[] base = add.forward(b).clone();
        b = add.prepare(List.of(new ScoreRow(new double[D], row)));
        int h = add.hiddenSize();
        for (int k = 0; k < h; k++) b.promptAdd().put(3 * h + k, 0.5f);
        float[] shifted = add.forward(b);
        double max = 0;
        for (int i = 0; i < base.length; i++) max = Math.max(max, Math.abs(base[i] - shifted[i]));
        assertTrue(max > 1e-2, "a constant shift after the LayerNorm changed the output by only " + max);
    }

    @Test
    void rowScoresDoNotDependOnBatchOrPadding() {
        SplittableRandom rnd = new SplittableRandom(5);
        double[] z = gaussian(rnd);
        ScoreRow target = new ScoreRow(z, add.encode("The plot was thin but the acting saved it."));
        ScoreRow targetNoPrompt = ScoreRow.withoutPrompt(target.tokenIds());
        float[][] alone = add.score(List.of(target, targetNoPrompt));
        List<ScoreRow> big = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            if (i == 13) big.add(target);
            else if (i == 21) big.add(targetNoPrompt);
            else big.add(new ScoreRow(i % 3 == 0 ? null : gaussian(rnd),
                    add.encode("row " + i + " " + "more words ".repeat(i % 7))));
        }
        float[][] inBatch = add.score(big);
        assertArrayEquals(alone[0], inBatch[13]);
        assertArrayEquals(alone[1], inBatch[21]);
        float[][] padded = add.score(List.of(target, new ScoreRow(z, add.encode("long ".repeat(120))),
                targetNoPrompt));
        assertArrayEquals(alone[0], padded[0]);
        assertArrayEquals(alone[1], padded[2]);
    }

    @Test
    void aGraphWithoutEmbeddingLayerNormIsRefused() {
        ModelProto tiny = TinyModels.build(TinyModels.Variant.HIDDEN_STATES, 1);
        ModelLoadException e = assertThrows(ModelLoadException.class,
                () -> GraphRewriter.rewrite(tiny, "tiny", PromptSpec.Injection.ADD_AFTER_LAYERNORM));
        assertTrue(e.getMessage().contains("LayerNorm"), e.getMessage());
    }

    /** bge-small-en-v1.5 (BERT-like, 12 layers), when its jar is on the classpath. */
    @Test
    void bgeSmallLoadsInAddModeAndMatchesItsOriginal(@TempDir Path dir) throws Exception {
        Path onnx = dir.resolve("bge.onnx");
        Path tokenizer = dir.resolve("bge-tokenizer.json");
        try (InputStream m = getClass().getClassLoader().getResourceAsStream("bge-small-en-v1.5.onnx");
             InputStream t = getClass().getClassLoader().getResourceAsStream("bge-small-en-v1.5-tokenizer.json")) {
            Assumptions.assumeTrue(m != null && t != null, "bge-small-en-v1.5 is not on the classpath");
            Files.copy(m, onnx, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(t, tokenizer, StandardCopyOption.REPLACE_EXISTING);
        }
        ModelSource source = new ModelSource(onnx, tokenizer);
        assertAddAfterEmbeddingLayerNorm(GraphRewriter.rewrite(
                OnnxModelReader.parse(OnnxModelReader.readBytes(source), "bge"), "bge",
                PromptSpec.Injection.ADD_AFTER_LAYERNORM).model());
        try (PromptModel bge = PromptModel.load(source,
                new PromptSpec(N_PROMPT, D, 42L, PromptSpec.Injection.ADD_AFTER_LAYERNORM),
                new HeadSpec.Similarity(List.of("It was terrible.", "It was great.")), ModelOptions.defaults())) {
            assertTrue(bge.rewriteMaxAbsDiff() <= 1e-5, "diff " + bge.rewriteMaxAbsDiff());
            int[] row = bge.encode("An ordinary film.");
            float[][] s = bge.score(List.of(new ScoreRow(gaussian(new SplittableRandom(1)), row),
                    new ScoreRow(new double[D], row)));
            assertFalse(Arrays.equals(s[0], s[1]));
            System.out.println("bge-small add-after-layernorm rewrite max abs diff = " + bge.rewriteMaxAbsDiff());
        }
    }

    /** One Add(embedding LayerNorm output, prompt_add) whose sum feeds the first layer's Q/K/V and residual. */
    private static void assertAddAfterEmbeddingLayerNorm(ModelProto model) {
        List<NodeProto> adds = model.getGraph().getNodeList().stream()
                .filter(n -> n.getInputList().contains(RewrittenGraph.PROMPT_ADD)).toList();
        assertEquals(1, adds.size());
        NodeProto a = adds.get(0);
        assertEquals("Add", a.getOpType());
        assertEquals("/embeddings/LayerNorm/Add_1_output_0", a.getInput(0));
        String sum = a.getOutput(0);
        long readers = model.getGraph().getNodeList().stream().filter(n -> n.getInputList().contains(sum)).count();
        long stale = model.getGraph().getNodeList().stream()
                .filter(n -> n != a && n.getInputList().contains(a.getInput(0))).count();
        assertEquals(4, readers, "query, key, value and the residual Add read the sum");
        assertEquals(0, stale, "nothing reads the LayerNorm output past the Add");
        assertTrue(model.getGraph().getInputList().stream().anyMatch(i -> i.getName().equals(RewrittenGraph.PROMPT_ADD)));
    }

    private static int[] withPlaceholders(int[] row) {
        int[] out = new int[row.length + N_PROMPT];
        out[0] = row[0];
        for (int k = 0; k < N_PROMPT; k++) out[1 + k] = PromptSpec.PLACEHOLDER_OFFSET + k;
        System.arraycopy(row, 1, out, 1 + N_PROMPT, row.length - 1);
        return out;
    }

    /** Max abs difference over the positions that are not padding. */
    private static double maxAbsDiff(float[] x, float[] y, EncodedBatch b, int width) {
        double max = 0;
        for (int r = 0; r < b.batch(); r++) {
            for (int pos = 0; pos < b.lengths()[r]; pos++) {
                int off = (r * b.seq() + pos) * width;
                for (int k = 0; k < width; k++) max = Math.max(max, Math.abs((double) x[off + k] - y[off + k]));
            }
        }
        return max;
    }

    private static double[] gaussian(SplittableRandom rnd) {
        double[] z = new double[D];
        for (int i = 0; i < D; i++) z[i] = rnd.nextDouble() * 2 - 1;
        return z;
    }
}
