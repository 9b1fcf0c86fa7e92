package dev.fedbpt.whitebox;

/**
 * The mean cross-entropy of a batch and its gradient with respect to a {@link DeepPrompt}, laid out like it.
 *
 * @param loss           mean over the rows of -log softmax(class scores)[label]
 * @param inputGradient  d loss / d {@link DeepPrompt#input()}
 * @param prefixGradient d loss / d {@link DeepPrompt#prefix()}
 * @param scores         the rows' class scores [rows][classes] of the same forward pass
 */
public record LossAndGradient(double loss, double[] inputGradient, double[] prefixGradient, float[][] scores) {
}
