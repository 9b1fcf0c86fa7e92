package dev.fedbpt.engine.method;

import java.util.List;

/**
 * Class scores [row][class] of the model with {@code prompt} on the given token rows; and, from a model that can
 * train, the loss and gradient of a {@link Prompt.Deep}.
 */
@FunctionalInterface
public interface PromptScorer {
    float[][] score(Prompt prompt, List<int[]> rows);

    /**
     * The mean cross-entropy of {@code rows} with {@code labels} under {@code prompt} and its gradient.
     *
     * @throws UnsupportedOperationException from a forward-only model
     */
    default Gradient lossAndGradient(Prompt.Deep prompt, List<int[]> rows, int[] labels) {
        throw new UnsupportedOperationException(FORWARD_ONLY);
    }

    /**
     * Each layer's cosine similarities between the rows' hidden states ({@link ClientProcedure.LayerKernels}).
     *
     * @throws UnsupportedOperationException from a forward-only model
     */
    default double[][][] layerKernels(List<int[]> rows) {
        throw new UnsupportedOperationException(FORWARD_ONLY);
    }

    String FORWARD_ONLY = "this model answers forward passes only; a white-box method needs model.backend = pytorch";
}
