package dev.fedbpt.inference;

import java.nio.FloatBuffer;
import java.nio.LongBuffer;

/**
 * A padded batch ready for the forward: {@code embeds} [batch, seq, hidden] and {@code mask} [batch, seq] are views of
 * the encoder's reused direct buffers (valid until the next {@link BatchEncoder#encode}). Row r holds its [CLS] at
 * position 0, then {@code promptLengths[r]} prompt vectors, then the rest of its tokens; {@code lengths[r]} positions
 * in total, padding after. With {@link PromptSpec.Injection#ADD_AFTER_LAYERNORM} the prompt positions hold the
 * placeholder tokens' embeddings and {@code promptAdd} [batch, seq, hidden] holds A·z there and zeros elsewhere; it is
 * null with {@code PREPEND}. {@code labelRows} is null, or per row null or the row whose [MASK] gives the row's
 * label position ({@link ScoreRow#labelRow()}). {@code tokenPrompts} is null (none), or per row how many of its
 * token ids after the first are a token prompt ({@link ScoreRow#tokenPrompt()}).
 */
record EncodedBatch(int batch, int seq, int hidden, FloatBuffer embeds, LongBuffer mask,
                    int[] lengths, int[] promptLengths, int[][] tokenIds, FloatBuffer promptAdd, int[][] labelRows,
                    int[] tokenPrompts) {

    EncodedBatch(int batch, int seq, int hidden, FloatBuffer embeds, LongBuffer mask,
                 int[] lengths, int[] promptLengths, int[][] tokenIds, FloatBuffer promptAdd) {
        this(batch, seq, hidden, embeds, mask, lengths, promptLengths, tokenIds, promptAdd, null, null);
    }

    /** This batch with its rows' labels read where {@code rows} (per row null: the row itself) have [MASK]. */
    EncodedBatch withLabelRows(int[][] rows) {
        return new EncodedBatch(batch, seq, hidden, embeds, mask, lengths, promptLengths, tokenIds, promptAdd, rows,
                tokenPrompts);
    }

    /** This batch with {@code lengths[r]} of row r's token ids after its first being a token prompt. */
    EncodedBatch withTokenPrompts(int[] lengths) {
        return new EncodedBatch(batch, seq, hidden, embeds, mask, this.lengths, promptLengths, tokenIds, promptAdd,
                labelRows, lengths);
    }

    /** How many of row r's token ids after its first are a token prompt. */
    int tokenPrompt(int r) {
        return tokenPrompts == null ? 0 : tokenPrompts[r];
    }

    /** The row whose [MASK] is row r's label position. */
    int[] labelRow(int r) {
        return labelRows != null && labelRows[r] != null ? labelRows[r] : tokenIds[r];
    }

    /** A batch without {@code prompt_add} ({@link PromptSpec.Injection#PREPEND}). */
    EncodedBatch(int batch, int seq, int hidden, FloatBuffer embeds, LongBuffer mask,
                 int[] lengths, int[] promptLengths, int[][] tokenIds) {
        this(batch, seq, hidden, embeds, mask, lengths, promptLengths, tokenIds, null);
    }

    /** Sequence position of token index {@code i} of row {@code r} (prompt vectors sit between index 0 and 1). */
    int positionOf(int r, int i) {
        return i == 0 ? 0 : i + promptLengths[r];
    }
}
