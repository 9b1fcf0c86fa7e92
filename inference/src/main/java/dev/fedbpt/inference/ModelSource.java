package dev.fedbpt.inference;

import java.nio.file.Path;

/**
 * Where the model comes from.
 *
 * @param onnxFile      an ONNX export of a BERT-family model; {@code null} selects the bundled all-MiniLM-L6-v2
 *                      (classpath resource {@code all-minilm-l6-v2.onnx} of the langchain4j jar)
 * @param tokenizerFile the HuggingFace {@code tokenizer.json} that goes with it; {@code null} only with the bundled
 *                      model (resource {@code all-minilm-l6-v2-tokenizer.json}); with the bundled model a non-null
 *                      file replaces the bundled tokenizer
 */
public record ModelSource(Path onnxFile, Path tokenizerFile) {

    /** Classpath resource of the bundled model. */
    public static final String BUNDLED_MODEL_RESOURCE = "all-minilm-l6-v2.onnx";
    /** Classpath resource of the bundled tokenizer. */
    public static final String BUNDLED_TOKENIZER_RESOURCE = "all-minilm-l6-v2-tokenizer.json";

    public ModelSource {
        if (onnxFile != null && tokenizerFile == null) {
            throw new IllegalArgumentException("a model file " + onnxFile + " needs its tokenizer.json");
        }
    }

    /** The all-MiniLM-L6-v2 export bundled on the classpath. */
    public static ModelSource bundled() {
        return new ModelSource(null, null);
    }

    public boolean isBundled() {
        return onnxFile == null;
    }

    /** A short human-readable name for messages. */
    public String describe() {
        return isBundled() ? "classpath:" + BUNDLED_MODEL_RESOURCE : onnxFile.toString();
    }
}
