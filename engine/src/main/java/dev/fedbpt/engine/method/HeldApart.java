package dev.fedbpt.engine.method;

import dev.fedbpt.engine.data.LocalData;

/**
 * A personalised client's rows held apart from the federated training data, for a method that asks for them
 * ({@link MethodNeeds#heldApartPerClass()}): the rows its personalisation round fits on ({@code train}) and a
 * disjoint development set of the same size per class ({@code dev}) that picks which of its prompts is tested.
 */
public record HeldApart(LocalData train, LocalData dev) {
    public HeldApart {
        if (train == null || dev == null) {
            throw new IllegalArgumentException("train and dev must not be null");
        }
    }
}
