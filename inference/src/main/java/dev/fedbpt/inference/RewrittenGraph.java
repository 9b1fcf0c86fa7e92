package dev.fedbpt.inference;

import ai.onnx.proto.OnnxMl.ModelProto;

/**
 * Result of {@link GraphRewriter#rewrite}: a graph that takes {@code inputs_embeds} [batch, seq, hidden] and
 * {@code attention_mask} [batch, seq] (int64), and with {@link PromptSpec.Injection#ADD_AFTER_LAYERNORM} also
 * {@code prompt_add} [batch, seq, hidden] (float), plus what was learnt about the original.
 *
 * @param model               the rewritten graph
 * @param embeddings          the word-embedding matrix cut out of the graph
 * @param outputName          name of the first graph output (hidden states or logits)
 * @param originalInputs      names of the original graph inputs (for the verification run)
 * @param maxPositions        rows of the position-embedding table if one was found, else 512
 * @param layerCount          number of transformer layers read from node / initializer names, or null
 * @param tokenTypeFolded     whether a token-type Gather was folded into a constant (row 0)
 */
record RewrittenGraph(ModelProto model, EmbeddingTable embeddings, String outputName,
                      java.util.List<String> originalInputs, int maxPositions, Integer layerCount,
                      boolean tokenTypeFolded) {
    static final String INPUTS_EMBEDS = "inputs_embeds";
    static final String ATTENTION_MASK = "attention_mask";
    static final String INPUT_IDS = "input_ids";
    static final String TOKEN_TYPE_IDS = "token_type_ids";
    /** Extra float input [batch, seq, hidden] of the {@link PromptSpec.Injection#ADD_AFTER_LAYERNORM} rewrite. */
    static final String PROMPT_ADD = "prompt_add";
}
