package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.gradient.PromptLayout;

/**
 * The federated part of a prefix: the parameters of the selected layers, in ascending layer order, cut out of (and
 * put back into) the full prefix [layers, 2, n_p, hidden].
 */
record LayerSlice(PromptLayout layout, int[] layers) {

    int size() {
        return layers.length * layout.perLayer();
    }

    float[] cut(float[] full) {
        float[] out = new float[size()];
        int per = layout.perLayer();
        for (int k = 0; k < layers.length; k++) System.arraycopy(full, layers[k] * per, out, k * per, per);
        return out;
    }

    float[] cut(double[] full) {
        float[] out = new float[size()];
        int per = layout.perLayer();
        for (int k = 0; k < layers.length; k++) {
            for (int i = 0; i < per; i++) out[k * per + i] = (float) full[layers[k] * per + i];
        }
        return out;
    }

    /** {@code full} with the selected layers replaced by {@code part}. */
    float[] put(float[] full, float[] part) {
        float[] out = full.clone();
        int per = layout.perLayer();
        for (int k = 0; k < layers.length; k++) System.arraycopy(part, k * per, out, layers[k] * per, per);
        return out;
    }
}
