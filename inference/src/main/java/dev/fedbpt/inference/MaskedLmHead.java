package dev.fedbpt.inference;

/**
 * Masked-LM head for exports whose output is vocabulary logits [batch, seq, vocab]: the score of class c is the logit
 * of label word c at the row's first [MASK] token (raw logits, no softmax). A row without [MASK] is an error.
 */
final class MaskedLmHead implements ClassHead {
    private final int[] labelTokenIds;
    private final int maskTokenId;

    MaskedLmHead(int[] labelTokenIds, int maskTokenId) {
        this.labelTokenIds = labelTokenIds.clone();
        this.maskTokenId = maskTokenId;
    }

    @Override
    public int numClasses() {
        return labelTokenIds.length;
    }

    int[] labelTokenIds() {
        return labelTokenIds.clone();
    }

    @Override
    public float[][] scores(float[] output, int width, EncodedBatch batch) {
        float[][] out = new float[batch.batch()][labelTokenIds.length];
        for (int r = 0; r < batch.batch(); r++) {
            int[] ids = batch.tokenIds()[r];
            int index = -1;
            for (int i = 0; i < ids.length; i++) {
                if (ids[i] == maskTokenId) {
                    index = i;
                    break;
                }
            }
            if (index < 0) {
                throw new IllegalArgumentException("row " + r + " has no [MASK] token (id " + maskTokenId
                        + "); the masked-LM head reads the label words' logits there");
            }
            int off = (r * batch.seq() + batch.positionOf(r, index)) * width;
            for (int c = 0; c < labelTokenIds.length; c++) out[r][c] = output[off + labelTokenIds[c]];
        }
        return out;
    }
}
