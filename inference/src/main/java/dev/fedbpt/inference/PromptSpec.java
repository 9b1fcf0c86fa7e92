package dev.fedbpt.inference;

/**
 * Shape of the continuous prompt p = A·z.
 *
 * @param promptLength   n_prompt, the number of prompt vectors placed right after [CLS]
 * @param dimension      d, the length of z
 * @param projectionSeed seed of the fixed random projection A (shared by server and clients, never sent)
 */
public record PromptSpec(int promptLength, int dimension, long projectionSeed) {
    public PromptSpec {
        if (promptLength < 0) throw new IllegalArgumentException("promptLength must be >= 0, got " + promptLength);
        if (dimension < 1) throw new IllegalArgumentException("dimension must be >= 1, got " + dimension);
    }
}
