package dev.fedbpt.inference;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The HuggingFace tokenizer of the model (DJL's native binding), with the tokenizer.json's own padding and truncation
 * switched off, plus the special tokens read from its {@code added_tokens}.
 */
final class TextTokenizer implements AutoCloseable {
    private final HuggingFaceTokenizer tokenizer;
    private final Map<String, Integer> specialTokens;

    private TextTokenizer(HuggingFaceTokenizer tokenizer, Map<String, Integer> specialTokens) {
        this.tokenizer = tokenizer;
        this.specialTokens = specialTokens;
    }

    static TextTokenizer load(ModelSource source) throws ModelLoadException {
        DjlEnvironment.prepare();
        boolean bundled = source.tokenizerFile() == null;
        boolean converted = bundled && source.bundledModel().converted() != null;
        String name = converted ? "the tokenizer of " + source.describe()
                : bundled ? "classpath:" + source.bundledModel().tokenizerResource()
                : source.tokenizerFile().toString();
        byte[] json;
        try {
            if (converted) {
                json = OnnxModelReader.convertedFile(source.bundledModel(), true);
            } else if (bundled) {
                try (InputStream in = OnnxModelReader.resource(source.bundledModel(),
                        source.bundledModel().tokenizerResource())) {
                    json = in.readAllBytes();
                }
            } else {
                json = Files.readAllBytes(source.tokenizerFile());
            }
        } catch (IOException e) {
            throw new ModelLoadException("cannot read tokenizer " + name + ": " + e, e);
        }
        Map<String, Integer> special = new LinkedHashMap<>();
        try {
            JsonObject root = JsonParser.parseString(new String(json, StandardCharsets.UTF_8)).getAsJsonObject();
            JsonElement added = root.get("added_tokens");
            if (added != null && added.isJsonArray()) {
                for (JsonElement e : (JsonArray) added) {
                    JsonObject t = e.getAsJsonObject();
                    boolean isSpecial = !t.has("special") || t.get("special").getAsBoolean();
                    if (isSpecial) special.put(t.get("content").getAsString(), t.get("id").getAsInt());
                }
            }
        } catch (RuntimeException e) {
            throw new ModelLoadException("tokenizer " + name + " is not a valid tokenizer.json: " + e.getMessage(), e);
        }
        Map<String, String> options = Map.of("addSpecialTokens", "true", "truncation", "false", "padding", "false");
        try {
            HuggingFaceTokenizer tok = HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(json), options);
            return new TextTokenizer(tok, special);
        } catch (IOException | RuntimeException e) {
            throw new ModelLoadException("cannot load tokenizer " + name + ": " + e.getMessage(), e);
        }
    }

    /** Token ids with the special tokens the tokenizer's post-processor adds ([CLS] ... [SEP]). */
    int[] encode(String text) {
        return toInts(tokenizer.encode(text, true, false).getIds());
    }

    /** Token ids without special tokens. */
    int[] encodeBare(String text) {
        return toInts(tokenizer.encode(text, false, false).getIds());
    }

    /** Special tokens by content, e.g. {@code [CLS] -> 101}. */
    Map<String, Integer> specialTokens() {
        return specialTokens;
    }

    int[] specialTokenIds() {
        return specialTokens.values().stream().mapToInt(Integer::intValue).distinct().sorted().toArray();
    }

    /** Id of [MASK] (or {@code <mask>}), or -1. */
    int maskTokenId() {
        for (String candidate : new String[] {"[MASK]", "<mask>", "[mask]"}) {
            Integer id = specialTokens.get(candidate);
            if (id != null) return id;
        }
        return -1;
    }

    private static int[] toInts(long[] ids) {
        return Arrays.stream(ids).mapToInt(Math::toIntExact).toArray();
    }

    @Override
    public void close() {
        tokenizer.close();
    }
}
