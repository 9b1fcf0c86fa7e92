package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tokenizer loaded alone encodes exactly as the loaded model, without opening a session. */
class PromptTokenizerTest {
    /** Short, empty, special, accented and non-Latin, at the limit and past it (cut, [SEP] kept). */
    private static final List<String> TEXTS = List.of(
            "hello world",
            "",
            "It was [MASK] .",
            "Café naïve façade — ¿qué? 東京 🙂 don't",
            "The plot was thin but the acting saved it. A gripping, well-made film!",
            "word ".repeat(500), // 502 tokens with [CLS] and [SEP]: exactly the longest row at prompt length 10
            "word ".repeat(501),
            "Review: " + "a long and winding sentence, ".repeat(120));

    @Test
    void bundledModelTokenizerAloneMatchesTheLoadedModel() throws Exception {
        PromptSpec prompt = new PromptSpec(10, 50, 42L);
        try (PromptModel model = PromptModel.load(ModelSource.bundled(), prompt,
                     new HeadSpec.Similarity(List.of("It was terrible.", "It was great.")), ModelOptions.defaults());
             PromptTokenizer tokens = PromptTokenizer.load(ModelSource.bundled(), prompt)) {
            assertSameEncoding(model, tokens);
            assertEquals(30522, tokens.vocabularySize());
            assertEquals(502, tokens.maxRowTokens());
            assertEquals(tokens.maxRowTokens(), tokens.encode(TEXTS.get(6)).length, "the long row is cut");
            assertEquals(6, tokens.layers(), "a member running white-box clients needs the encoder's layers");
        }
    }

    @Test
    void tinyModelTokenizerAloneMatchesTheLoadedModel(@TempDir Path dir) throws Exception {
        ModelSource source = new ModelSource(TinyModels.write(dir, TinyModels.Variant.MASKED_LM, 7),
                TinyModels.writeTokenizer(dir));
        PromptSpec prompt = new PromptSpec(3, 6, 11L);
        try (PromptModel model = PromptModel.load(source, prompt, new HeadSpec.MaskedLm(List.of("bad", "great")),
                     ModelOptions.defaults());
             PromptTokenizer tokens = PromptTokenizer.load(source, prompt)) {
            assertSameEncoding(model, tokens);
            assertEquals(TinyModels.POSITIONS - 3, tokens.maxRowTokens());
            assertThrows(UnsupportedOperationException.class, tokens::layers, "not a BERT-family graph");
        }
    }

    @Test
    void refusesWhatTheModelRefusesNamingTheFile(@TempDir Path dir) throws Exception {
        Path tokenizer = TinyModels.writeTokenizer(dir);
        Path noGather = TinyModels.write(dir, TinyModels.Variant.NO_GATHER, 7);
        ModelLoadException e = assertThrows(ModelLoadException.class,
                () -> PromptTokenizer.load(new ModelSource(noGather, tokenizer), new PromptSpec(3, 6, 11L)));
        assertTrue(e.getMessage().contains(noGather.toString()) && e.getMessage().contains("no embedding Gather"),
                e.getMessage());

        Path onnx = TinyModels.write(dir, TinyModels.Variant.MASKED_LM, 7);
        e = assertThrows(ModelLoadException.class,
                () -> PromptTokenizer.load(new ModelSource(onnx, tokenizer), new PromptSpec(15, 6, 11L)));
        assertEquals("prompt length 15 leaves no room for tokens in 16 positions of " + onnx, e.getMessage());

        Path missing = dir.resolve("missing.onnx");
        e = assertThrows(ModelLoadException.class,
                () -> PromptTokenizer.load(new ModelSource(missing, tokenizer), new PromptSpec(3, 6, 11L)));
        assertTrue(e.getMessage().contains("model file not found: " + missing), e.getMessage());

        Path notJson = Files.writeString(dir.resolve("tokenizer-broken.json"), "{");
        e = assertThrows(ModelLoadException.class,
                () -> PromptTokenizer.load(new ModelSource(onnx, notJson), new PromptSpec(3, 6, 11L)));
        assertTrue(e.getMessage().contains(notJson.toString()), e.getMessage());
    }

    private static void assertSameEncoding(PromptModel model, PromptTokenizer tokens) {
        for (String text : TEXTS) {
            assertArrayEquals(model.encode(text), tokens.encode(text), text);
        }
        assertEquals(model.vocabularySize(), tokens.vocabularySize());
        assertArrayEquals(model.specialTokenIds(), tokens.specialTokenIds());
        assertEquals(model.maxRowTokens(), tokens.maxRowTokens());
    }
}
