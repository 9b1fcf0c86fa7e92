package dev.fedbpt.inference;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.List;

/**
 * Fills {@code inputs_embeds} and {@code attention_mask} for a batch into direct, native-order buffers that are
 * reused across calls (grown when a larger batch comes). Padding positions get zero vectors and mask 0. Not
 * thread-safe.
 *
 * <p>With placeholder ids ({@link PromptSpec.Injection#ADD_AFTER_LAYERNORM}) a row with a prompt gets the
 * placeholder tokens' word embeddings at its prompt positions instead of the prompt, and the prompt goes, at the same
 * positions, into a third buffer {@code prompt_add} that is zero everywhere else ([CLS], text, padding, rows without
 * a prompt).
 */
final class BatchEncoder {
    private final EmbeddingTable table;
    private final int hidden;
    /** Token ids at the prompt positions when the prompt is added after the LayerNorm; null when it is prepended. */
    private final int[] placeholders;
    private FloatBuffer embeds = FloatBuffer.allocate(0);
    private LongBuffer mask = LongBuffer.allocate(0);
    private FloatBuffer promptAdd = FloatBuffer.allocate(0);

    BatchEncoder(EmbeddingTable table) {
        this(table, null);
    }

    /** @param placeholders the placeholder token ids (one per prompt vector), or null to prepend the prompt */
    BatchEncoder(EmbeddingTable table, int[] placeholders) {
        this.table = table;
        this.hidden = table.hiddenSize();
        this.placeholders = placeholders == null ? null : placeholders.clone();
    }

    /**
     * @param tokenIds rows of token ids, [CLS] first
     * @param prompts  per row the expanded prompt (n_prompt·hidden floats) or null
     */
    EncodedBatch encode(List<int[]> tokenIds, List<float[]> prompts) {
        int batch = tokenIds.size();
        int[] lengths = new int[batch];
        int[] promptLengths = new int[batch];
        int seq = 1;
        for (int r = 0; r < batch; r++) {
            float[] p = prompts.get(r);
            promptLengths[r] = p == null ? 0 : p.length / hidden;
            lengths[r] = tokenIds.get(r).length + promptLengths[r];
            seq = Math.max(seq, lengths[r]);
        }
        int floats = batch * seq * hidden;
        int longs = batch * seq;
        ensureCapacity(floats, longs);
        FloatBuffer e = embeds;
        LongBuffer m = mask;
        int[][] ids = new int[batch][];
        for (int r = 0; r < batch; r++) {
            int[] row = tokenIds.get(r);
            ids[r] = row;
            float[] p = prompts.get(r);
            int base = r * seq * hidden;
            table.copyRow(row[0], e, base);
            int pos = 1;
            if (p != null) {
                if (placeholders == null) {
                    e.put(base + hidden, p, 0, p.length);
                } else {
                    if (promptLengths[r] != placeholders.length) {
                        throw new IllegalArgumentException("a prompt of " + promptLengths[r] + " vectors for "
                                + placeholders.length + " placeholder tokens");
                    }
                    for (int k = 0; k < placeholders.length; k++) {
                        table.copyRow(placeholders[k], e, base + (1 + k) * hidden);
                    }
                }
                pos += promptLengths[r];
            }
            for (int i = 1; i < row.length; i++, pos++) table.copyRow(row[i], e, base + pos * hidden);
            int end = base + seq * hidden;
            for (int k = base + pos * hidden; k < end; k++) e.put(k, 0f);
            int mb = r * seq;
            for (int k = 0; k < seq; k++) m.put(mb + k, k < lengths[r] ? 1L : 0L);
        }
        FloatBuffer ev = e.duplicate();
        ev.position(0).limit(floats);
        LongBuffer mv = m.duplicate();
        mv.position(0).limit(longs);
        if (placeholders == null) {
            return new EncodedBatch(batch, seq, hidden, ev.slice(), mv.slice(), lengths, promptLengths, ids);
        }
        FloatBuffer a = promptAdd;
        for (int r = 0; r < batch; r++) {
            float[] p = prompts.get(r);
            int base = r * seq * hidden;
            int from = base;
            if (p != null) {
                zero(a, base, base + hidden); // [CLS]
                a.put(base + hidden, p, 0, p.length);
                from = base + hidden + p.length;
            }
            zero(a, from, base + seq * hidden); // text and padding; the whole row without a prompt
        }
        FloatBuffer av = a.duplicate();
        av.position(0).limit(floats);
        return new EncodedBatch(batch, seq, hidden, ev.slice(), mv.slice(), lengths, promptLengths, ids, av.slice());
    }

    private static final float[] ZEROS = new float[4096];

    private static void zero(FloatBuffer b, int from, int to) {
        for (int k = from; k < to; k += ZEROS.length) b.put(k, ZEROS, 0, Math.min(ZEROS.length, to - k));
    }

    private void ensureCapacity(int floats, int longs) {
        if (embeds.capacity() < floats) {
            int cap = Math.max(floats, embeds.capacity() + embeds.capacity() / 2);
            embeds = ByteBuffer.allocateDirect(cap * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();
        }
        if (mask.capacity() < longs) {
            int cap = Math.max(longs, mask.capacity() + mask.capacity() / 2);
            mask = ByteBuffer.allocateDirect(cap * Long.BYTES).order(ByteOrder.nativeOrder()).asLongBuffer();
        }
        if (placeholders != null && promptAdd.capacity() < floats) {
            int cap = Math.max(floats, promptAdd.capacity() + promptAdd.capacity() / 2);
            promptAdd = ByteBuffer.allocateDirect(cap * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();
        }
    }
}
