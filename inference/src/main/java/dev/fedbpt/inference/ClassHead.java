package dev.fedbpt.inference;

/** Turns the graph's output for a batch into class scores, one row per example. */
interface ClassHead {
    int numClasses();

    /**
     * @param output the first graph output, [batch, seq, width] flattened row-major
     * @param width  its last dimension
     */
    float[][] scores(float[] output, int width, EncodedBatch batch);
}
