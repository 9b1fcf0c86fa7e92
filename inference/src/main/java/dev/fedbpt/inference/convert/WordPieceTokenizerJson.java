package dev.fedbpt.inference.convert;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.util.List;

/**
 * A HuggingFace {@code tokenizer.json} for a BERT WordPiece vocabulary, as {@code BertTokenizerFast} writes one:
 * BertNormalizer (lower-casing or not), BertPreTokenizer, [CLS] A [SEP] (B [SEP]) and the five special tokens.
 * Padding and truncation are left unset: fedbpt pads and cuts rows itself.
 */
final class WordPieceTokenizerJson {
    private static final List<String> SPECIAL = List.of("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]");

    private WordPieceTokenizerJson() {
    }

    static String write(List<String> vocabulary, boolean lowercase) throws ConversionException {
        JsonObject vocab = new JsonObject();
        for (int i = 0; i < vocabulary.size(); i++) {
            if (!vocab.has(vocabulary.get(i))) vocab.addProperty(vocabulary.get(i), i);
        }
        JsonArray added = new JsonArray();
        for (String token : SPECIAL) {
            if (!vocab.has(token)) throw new ConversionException("the vocabulary has no special token " + token);
            JsonObject t = new JsonObject();
            t.addProperty("id", vocab.get(token).getAsInt());
            t.addProperty("content", token);
            t.addProperty("single_word", false);
            t.addProperty("lstrip", false);
            t.addProperty("rstrip", false);
            t.addProperty("normalized", false);
            t.addProperty("special", true);
            added.add(t);
        }
        JsonObject root = new JsonObject();
        root.addProperty("version", "1.0");
        root.add("truncation", JsonNull.INSTANCE);
        root.add("padding", JsonNull.INSTANCE);
        root.add("added_tokens", added);
        JsonObject normalizer = new JsonObject();
        normalizer.addProperty("type", "BertNormalizer");
        normalizer.addProperty("clean_text", true);
        normalizer.addProperty("handle_chinese_chars", true);
        normalizer.add("strip_accents", JsonNull.INSTANCE);
        normalizer.addProperty("lowercase", lowercase);
        root.add("normalizer", normalizer);
        JsonObject pre = new JsonObject();
        pre.addProperty("type", "BertPreTokenizer");
        root.add("pre_tokenizer", pre);
        root.add("post_processor", postProcessor(vocab));
        JsonObject decoder = new JsonObject();
        decoder.addProperty("type", "WordPiece");
        decoder.addProperty("prefix", "##");
        decoder.addProperty("cleanup", true);
        root.add("decoder", decoder);
        JsonObject model = new JsonObject();
        model.addProperty("type", "WordPiece");
        model.addProperty("unk_token", "[UNK]");
        model.addProperty("continuing_subword_prefix", "##");
        model.addProperty("max_input_chars_per_word", 100);
        model.add("vocab", vocab);
        root.add("model", model);
        return new GsonBuilder().serializeNulls().disableHtmlEscaping().create().toJson(root);
    }

    private static JsonObject postProcessor(JsonObject vocab) {
        JsonObject p = new JsonObject();
        p.addProperty("type", "TemplateProcessing");
        p.add("single", template(piece("SpecialToken", "[CLS]", 0), piece("Sequence", "A", 0),
                piece("SpecialToken", "[SEP]", 0)));
        p.add("pair", template(piece("SpecialToken", "[CLS]", 0), piece("Sequence", "A", 0),
                piece("SpecialToken", "[SEP]", 0), piece("Sequence", "B", 1), piece("SpecialToken", "[SEP]", 1)));
        JsonObject special = new JsonObject();
        for (String token : List.of("[CLS]", "[SEP]")) {
            JsonObject s = new JsonObject();
            s.addProperty("id", token);
            JsonArray ids = new JsonArray();
            ids.add(vocab.get(token).getAsInt());
            s.add("ids", ids);
            JsonArray tokens = new JsonArray();
            tokens.add(token);
            s.add("tokens", tokens);
            special.add(token, s);
        }
        p.add("special_tokens", special);
        return p;
    }

    private static JsonArray template(JsonObject... pieces) {
        JsonArray a = new JsonArray();
        for (JsonObject o : pieces) a.add(o);
        return a;
    }

    private static JsonObject piece(String kind, String id, int typeId) {
        JsonObject inner = new JsonObject();
        inner.addProperty("id", id);
        inner.addProperty("type_id", typeId);
        JsonObject o = new JsonObject();
        o.add(kind, inner);
        return o;
    }
}
