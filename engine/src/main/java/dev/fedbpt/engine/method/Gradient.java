package dev.fedbpt.engine.method;

/**
 * The mean cross-entropy of some rows under a {@link Prompt.Deep} and its gradient, laid out like the prompt's values.
 *
 * @param loss   mean over the rows of -log softmax(class scores)[label]
 * @param input  d loss / d {@link Prompt.Deep#input()}
 * @param prefix d loss / d {@link Prompt.Deep#prefix()}
 */
public record Gradient(double loss, double[] input, double[] prefix) {
    public Gradient {
        if (input == null || prefix == null) {
            throw new IllegalArgumentException("gradients must not be null (empty for a part the prompt lacks)");
        }
    }
}
