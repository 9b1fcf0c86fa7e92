package dev.fedbpt.inference;

import java.util.Objects;

/**
 * Shape of the continuous prompt p = A·z.
 *
 * @param promptLength   n_prompt, the number of prompt vectors placed right after [CLS]
 * @param dimension      d, the length of z; 0 when no prompt carries one (no projection A is built)
 * @param projectionSeed seed of the fixed random projection A (shared by server and clients, never sent)
 * @param injection      how A·z enters the model (see {@link Injection})
 */
public record PromptSpec(int promptLength, int dimension, long projectionSeed, Injection injection) {

    /**
     * First placeholder token id of {@link Injection#ADD_AFTER_LAYERNORM}: a row with a prompt gets the ordinary
     * vocabulary tokens {@code PLACEHOLDER_OFFSET, PLACEHOLDER_OFFSET + 1, ..., PLACEHOLDER_OFFSET + n_prompt - 1}
     * right after [CLS], the ids the reference code's data loaders put there for RoBERTa (see {@link Injection}).
     */
    public static final int PLACEHOLDER_OFFSET = 1000;

    /**
     * How the prompt A·z (n_prompt vectors of the hidden size) enters the frozen model.
     *
     * <p>The public reference code of FedBPT (NVIDIA/NVFlare, research/fed-bpt/src, read at commit f3b7c1bf) does
     * {@code ADD_AFTER_LAYERNORM}: its option {@code --cat_or_add} defaults to {@code "add"} (fedbpt_train.py:87;
     * "add" also means no initial prompt, :155-158), and only {@code "cat"} switches the model to concatenation
     * (LMForwardAPI.py:140-151; {@code concat_prompt = False} by default, models/modeling_roberta.py:938). Every
     * task's data loader writes the text of the token ids 1000 .. 1000 + n_prompt - 1 in front of the input
     * ({@code offset = 1000; prompt = tokenizer.decode(list(range(offset, offset + n_prompt_tokens)))}, "use randomly
     * selected words as initial prompt", dataloaders/dataloader.py:77-80 for SST-2, the same at :132, :189, :254,
     * :312, :374, :437 for the other tasks); RoBERTa's tokenizer turns it back into those n_prompt ordinary tokens
     * right after {@code <s>}, which go through word, position and token-type embedding and the embedding LayerNorm
     * like any other token (modeling_roberta.py:110-142). Then (modeling_roberta.py:746-763) the embedding layer's
     * output (after its LayerNorm and dropout, before the first encoder layer) gets A·z added: a zero vector for
     * {@code <s>} (pre_padding, :760-761), the n_prompt rows of A·z (LMForwardAPI.py:161-172 builds A, :391 reshapes
     * A·z to [n_prompt, hidden] for every row) at positions 1 .. n_prompt, and zeros for every later position,
     * padding included (modeling_roberta.py:755-759). The n_prompt positions stay in the attention mask as the
     * ordinary tokens they are.
     *
     * <p>Here the placeholders are the same ids, {@link #PLACEHOLDER_OFFSET} + k, inserted directly (no decode and
     * re-encode, so there are exactly n_prompt of them). In RoBERTa's frequency-ordered BPE vocabulary these are
     * common words; in the BERT uncased vocabulary of all-MiniLM-L6-v2 and bge-small-en-v1.5 they are the
     * single-character tokens {@code "}, {@code #}, {@code $}, ... (ids 999-1995 are punctuation, digits and letters;
     * whole words begin at 1996). Either way they are ordinary, non-special tokens, fixed and the same in every
     * row, which is what the mechanism needs: A·z is a perturbation of their normalised embeddings, and with z = 0
     * the row is just the text with the placeholder tokens. The reference's template also puts " ." between the
     * placeholders and the sentence; here the task's own template follows them directly. A row without z gets
     * neither placeholders nor an addition, as with {@code PREPEND}.
     */
    public enum Injection {
        /**
         * n_prompt vectors A·z inserted as input embeddings right after [CLS], before position embeddings and the
         * embedding LayerNorm.
         */
        PREPEND,
        /** n_prompt placeholder tokens after [CLS]; A·z added to the embedding LayerNorm's output at them. */
        ADD_AFTER_LAYERNORM
    }

    public PromptSpec {
        if (promptLength < 0) throw new IllegalArgumentException("promptLength must be >= 0, got " + promptLength);
        if (dimension < 0) throw new IllegalArgumentException("dimension must be >= 0, got " + dimension);
        Objects.requireNonNull(injection, "injection");
    }

    /** A prompt prepended as input embeddings ({@link Injection#PREPEND}). */
    public PromptSpec(int promptLength, int dimension, long projectionSeed) {
        this(promptLength, dimension, projectionSeed, Injection.PREPEND);
    }

    /** The placeholder token ids a prompted row carries after [CLS] with {@link Injection#ADD_AFTER_LAYERNORM}. */
    public int[] placeholderIds() {
        int[] ids = new int[promptLength];
        for (int k = 0; k < promptLength; k++) ids[k] = PLACEHOLDER_OFFSET + k;
        return ids;
    }
}
