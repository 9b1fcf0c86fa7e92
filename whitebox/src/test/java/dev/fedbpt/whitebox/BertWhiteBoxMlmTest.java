package dev.fedbpt.whitebox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.inference.EncoderWeights;
import dev.fedbpt.inference.HeadSpec;
import dev.fedbpt.inference.ModelLoadException;
import dev.fedbpt.inference.ModelOptions;
import dev.fedbpt.inference.ModelSource;
import dev.fedbpt.inference.PromptModel;
import dev.fedbpt.inference.PromptSpec;
import dev.fedbpt.inference.ScoreRow;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PyTorch rebuild of BERT-base with its masked-LM head (Google's tanh GELU, the transform, the decoder tied to the
 * word embeddings) against the ONNX Runtime path's scores of the same bundled model, and its gradients against finite
 * differences.
 */
class BertWhiteBoxMlmTest {
    private static final ModelSource BERT = ModelSource.bundled("bert-base-uncased");
    private static final HeadSpec.MaskedLm HEAD = new HeadSpec.MaskedLm(List.of("bad", "great"));
    private static final String[] TEXTS = {"a gripping, funny and moving film . It was [MASK] .",
            "dull . It was [MASK] .", "[MASK] , said the critic of this tired and predictable plot ."};
    private static final int SOFT = 4;

    static WhiteBoxModel torch;
    static PromptModel onnx;

    @BeforeAll
    static void load() throws Exception {
        torch = WhiteBoxModel.load(BERT, HEAD, WhiteBoxModel.Precision.FLOAT32, SOFT);
        onnx = PromptModel.load(BERT, new PromptSpec(SOFT, 1, 1L, PromptSpec.Injection.PREPEND), HEAD,
                ModelOptions.defaults().withIntraOpThreads(1));
    }

    @AfterAll
    static void close() {
        torch.close();
        onnx.close();
    }

    private static List<int[]> rows(WhiteBoxModel m) {
        List<int[]> rows = new ArrayList<>();
        for (String t : TEXTS) rows.add(m.encode(t));
        return rows;
    }

    @Test
    void readsGooglesGeluAndTheMaskedLmHeadFromTheConvertedGraph() throws ModelLoadException {
        EncoderWeights w = EncoderWeights.read(BERT);
        assertEquals(EncoderWeights.Activation.GELU_TANH, w.activation());
        assertTrue(w.hasMlmHead());
        assertEquals(w.vocabularySize(), w.mlmHead().outputBias().length);
        assertEquals(EncoderWeights.Activation.GELU_ERF, EncoderWeights.read(ModelSource.bundled()).activation(),
                "the bundled MiniLM, a PyTorch export");
        assertTrue(!EncoderWeights.read(ModelSource.bundled()).hasMlmHead());
    }

    @Test
    void labelWordLogitsAgreeWithOnnxRuntimeWithAndWithoutASoftPrompt() {
        List<int[]> rows = rows(torch);
        for (int i = 0; i < rows.size(); i++) {
            org.junit.jupiter.api.Assertions.assertArrayEquals(onnx.encode(TEXTS[i]), rows.get(i), "same tokens");
        }
        double[] soft = WhiteBoxCheck.gaussian(SOFT * torch.hiddenSize(), 0.05, 7);
        double[] diffs = WhiteBoxCheck.differencesFromOnnx(onnx, torch, rows, soft);
        System.out.printf("white-box BERT-base masked-LM logits vs ONNX Runtime: max abs diff %.2e without a "
                + "prompt, %.2e with a soft prompt%n", diffs[0], diffs[1]);
        assertTrue(diffs[0] < 1e-3 && diffs[1] < 1e-3, java.util.Arrays.toString(diffs));
        float[][] expectedBare = onnx.score(rows.stream().map(ScoreRow::withoutPrompt).toList());
        assertTrue(expectedBare[0][1] > expectedBare[0][0], "a glowing review reads 'great' above 'bad'");
    }

    @Test
    void aRowWithoutMaskIsRefusedByRow() {
        List<int[]> rows = List.of(torch.encode("no mask here"));
        var e = assertThrows(IllegalArgumentException.class, () -> torch.score((Prompt) null, rows));
        assertTrue(e.getMessage().contains("row 0 has no [MASK]"), e.getMessage());
    }

    @Test
    void gradientsThroughTheMaskedLmHeadMatchFiniteDifferences() throws Exception {
        try (WhiteBoxModel model = WhiteBoxModel.load(BERT, HEAD, WhiteBoxModel.Precision.FLOAT64, SOFT)) {
            int h = model.hiddenSize();
            int np = 2;
            Prompt.Deep prompt = new Prompt.Deep(2, WhiteBoxCheck.gaussian(2 * h, 0.1, 11), np,
                    WhiteBoxCheck.gaussian(model.layers() * 2 * np * h, 0.3, 12));
            GradientCheckTest.assertMatchesFiniteDifferences(model, prompt, rows(model).subList(0, 2),
                    new int[] {1, 0}, 6);
        }
    }

    @Test
    void anEncoderWithoutAnLmHeadIsRefusedForTheMaskedLmHead() {
        var e = assertThrows(ModelLoadException.class,
                () -> WhiteBoxModel.load(ModelSource.bundled(), HEAD, WhiteBoxModel.Precision.FLOAT32));
        assertTrue(e.getMessage().contains("has no masked-LM head"), e.getMessage());
    }

}
