package dev.fedbpt.inference;

import ai.onnx.proto.OnnxMl.ModelProto;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tokenising part of {@link PromptModel}, which encodes through one of these: the same token ids, longest row,
 * vocabulary and special ids. {@link #load} builds one without the model's ONNX Runtime session, graph rewrite or
 * embedding table, for members that prepare data but score nothing.
 */
public final class PromptTokenizer implements ModelTokenizer {
    private static final Logger LOG = LoggerFactory.getLogger(PromptTokenizer.class);

    private final TextTokenizer tokenizer;
    private final int vocabularySize;
    private final int maxRowTokens;
    private final int hiddenSize;
    private final ModelSource source;
    private final int layers;
    private volatile float[] wordEmbeddings;

    PromptTokenizer(TextTokenizer tokenizer, int vocabularySize, int maxRowTokens) {
        this(tokenizer, vocabularySize, maxRowTokens, 0, null, 0);
    }

    /** @param layers the export's encoder layers as {@link EncoderWeights} finds them (0: not a BERT-family graph) */
    PromptTokenizer(TextTokenizer tokenizer, int vocabularySize, int maxRowTokens, int hiddenSize,
                    ModelSource source, int layers) {
        this.layers = layers;
        this.hiddenSize = hiddenSize;
        this.source = source;
        this.tokenizer = tokenizer;
        this.vocabularySize = vocabularySize;
        this.maxRowTokens = maxRowTokens;
    }

    /**
     * The tokenizer of the model {@code source} names, for prompts of {@code prompt}'s length. The vocabulary size
     * and the position count are the shapes of the graph's word- and position-embedding initializers, read as
     * {@link PromptModel#load} reads them: the tokenizer's own vocabulary may be smaller than the embedding table
     * (exports pad it), and tokenizer.json need not state the positions. The export is read and parsed once, its
     * tensors left undecoded.
     *
     * @throws ModelLoadException as {@link PromptModel#load} for a missing or unreadable file, a graph without the
     *                            word-embedding Gather it rewrites, or a prompt that leaves no room for tokens
     */
    public static PromptTokenizer load(ModelSource source, PromptSpec prompt) throws ModelLoadException {
        String name = source.describe();
        long t0 = System.nanoTime();
        ModelProto graph = OnnxModelReader.parseAliasing(OnnxModelReader.readBytes(source), name);
        GraphRewriter.Dimensions dimensions = GraphRewriter.dimensions(graph, name);
        int maxRowTokens = maxRowTokens(dimensions.maxPositions(), prompt, name);
        PromptTokenizer tokens = new PromptTokenizer(TextTokenizer.load(source), dimensions.vocabularySize(),
                maxRowTokens, dimensions.hiddenSize(), source, EncoderWeights.layerCount(graph.getGraph()));
        LOG.info("loaded the tokenizer of {} (no session): vocab {}, longest row {}, {} ms", name,
                dimensions.vocabularySize(), maxRowTokens, (System.nanoTime() - t0) / 1_000_000);
        return tokens;
    }

    /** Longest row that fits with the prompt in {@code maxPositions}; refuses a prompt that leaves no room. */
    static int maxRowTokens(int maxPositions, PromptSpec prompt, String name) throws ModelLoadException {
        if (prompt.promptLength() + 2 > maxPositions) {
            throw new ModelLoadException("prompt length " + prompt.promptLength() + " leaves no room for tokens in "
                    + maxPositions + " positions of " + name);
        }
        return maxPositions - prompt.promptLength();
    }

    /**
     * Token ids with [CLS] ... [SEP]. Rows longer than {@link #maxRowTokens()} are cut to that length, keeping the
     * final special token ([SEP]) when the row ends with one.
     */
    @Override
    public int[] encode(String text) {
        return ModelTokenizer.cut(tokenizer.encode(text), maxRowTokens, tokenizer.specialTokens()::containsValue);
    }

    /** The token ids a masked-LM head reads: one per label word, and the [MASK] token's. */
    public record MaskedLmTokens(int[] labelWords, int mask) {}

    /**
     * The masked-LM head's token ids for this tokenizer, as the ONNX path resolves them.
     *
     * @throws ModelLoadException when a label word is not exactly one token or there is no mask token
     */
    public MaskedLmTokens maskedLmTokens(HeadSpec.MaskedLm spec) throws ModelLoadException {
        MaskedLmHead head = MaskedLmHead.of(tokenizer, spec, source == null ? "the model" : source.describe());
        return new MaskedLmTokens(head.labelTokenIds(), head.maskTokenId());
    }

    /** Longest row (token ids incl. [CLS]/[SEP]) that fits with the prompt in the position table. */
    @Override
    public int maxRowTokens() {
        return maxRowTokens;
    }

    @Override
    public int vocabularySize() {
        return vocabularySize;
    }

    @Override
    public int[] specialTokenIds() {
        return tokenizer.specialTokenIds();
    }

    @Override
    public void close() {
        tokenizer.close();
    }

    @Override
    public int hiddenSize() {
        return hiddenSize;
    }

    /** The export's encoder layers, for a member that runs white-box clients without the model itself. */
    @Override
    public int layers() {
        return layers > 0 ? layers : ModelTokenizer.super.layers();
    }

    /** Decoded from the export on first call (the tokenizer alone never needs it). */
    @Override
    public float[] wordEmbeddings() {
        float[] table = wordEmbeddings;
        if (table == null) {
            synchronized (this) {
                if (wordEmbeddings == null) {
                    if (source == null) {
                        throw new IllegalStateException("this tokenizer was built without its model file");
                    }
                    try {
                        String name = source.describe();
                        wordEmbeddings = GraphRewriter.wordEmbeddings(
                                OnnxModelReader.parse(OnnxModelReader.readBytes(source), name), name);
                    } catch (ModelLoadException e) {
                        throw new IllegalStateException(e.getMessage(), e);
                    }
                }
                table = wordEmbeddings;
            }
        }
        return table;
    }
}
