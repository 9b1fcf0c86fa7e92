package dev.fedbpt.inference;

/**
 * Masked-LM head: the score of class c is the logit of label word c at the row's first [MASK] token (raw logits, no
 * softmax). A row without [MASK] is an error. It reads either an export's full output, vocabulary logits
 * [batch, seq, vocab], or a graph {@link MaskedLmGather} cut down to the label words' logits at [MASK],
 * [batch, 1, labels], which takes the rows' [MASK] positions as an input ({@link #maskPositions}).
 */
final class MaskedLmHead implements ClassHead {
    private final int[] labelTokenIds;
    private final int maskTokenId;
    private final boolean gathered;

    MaskedLmHead(int[] labelTokenIds, int maskTokenId) {
        this(labelTokenIds, maskTokenId, false);
    }

    private MaskedLmHead(int[] labelTokenIds, int maskTokenId, boolean gathered) {
        this.labelTokenIds = labelTokenIds.clone();
        this.maskTokenId = maskTokenId;
        this.gathered = gathered;
    }

    /**
     * The head of {@code spec} for {@code tokenizer}: its [MASK] token and the label words' token ids.
     *
     * @throws ModelLoadException when the tokenizer has no mask token or a label word is not exactly one token
     */
    static MaskedLmHead of(TextTokenizer tokenizer, HeadSpec.MaskedLm spec, String name) throws ModelLoadException {
        int maskId = tokenizer.maskTokenId();
        if (maskId < 0) {
            throw new ModelLoadException("the tokenizer of " + name + " has no [MASK] / <mask> special token");
        }
        int[] ids = new int[spec.labelWords().size()];
        for (int c = 0; c < ids.length; c++) {
            String word = spec.labelWords().get(c);
            int[] t = tokenizer.encodeBare(word);
            if (t.length != 1) {
                throw new ModelLoadException("label word '" + word + "' is " + t.length + " tokens "
                        + java.util.Arrays.toString(t) + " for the tokenizer of " + name
                        + "; each label word must be exactly one token");
            }
            ids[c] = t[0];
        }
        return new MaskedLmHead(ids, maskId);
    }

    int maskTokenId() {
        return maskTokenId;
    }

    /** This head reading a {@link MaskedLmGather} graph's output. */
    MaskedLmHead gathered() {
        return new MaskedLmHead(labelTokenIds, maskTokenId, true);
    }

    boolean isGathered() {
        return gathered;
    }

    @Override
    public int numClasses() {
        return labelTokenIds.length;
    }

    int[] labelTokenIds() {
        return labelTokenIds.clone();
    }

    /** Row r's flat index r * seq + (sequence position of its first [MASK]), the gathered graph's input. */
    long[] maskPositions(EncodedBatch batch) {
        long[] out = new long[batch.batch()];
        for (int r = 0; r < out.length; r++) out[r] = (long) r * batch.seq() + batch.positionOf(r, maskIndex(batch, r));
        return out;
    }

    @Override
    public float[][] scores(float[] output, int width, EncodedBatch batch) {
        float[][] out = new float[batch.batch()][labelTokenIds.length];
        for (int r = 0; r < batch.batch(); r++) {
            if (gathered) {
                System.arraycopy(output, r * width, out[r], 0, labelTokenIds.length);
                continue;
            }
            int off = (r * batch.seq() + batch.positionOf(r, maskIndex(batch, r))) * width;
            for (int c = 0; c < labelTokenIds.length; c++) out[r][c] = output[off + labelTokenIds[c]];
        }
        return out;
    }

    private int maskIndex(EncodedBatch batch, int r) {
        int[] ids = batch.labelRow(r);
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == maskTokenId) return i;
        }
        throw new IllegalArgumentException("row " + r + " has no [MASK] token (id " + maskTokenId
                + "); the masked-LM head reads the label words' logits there");
    }
}
