package dev.fedbpt.engine.method;

/**
 * What a method asks of the framework before it is built, each read from the method's own settings: the model is
 * loaded for it and faults are drawn for it, so these must be known before the method exists.
 *
 * @param projectionDimension     d, the length of the z its prompts carry, for which the model builds its fixed
 *                                projection A; 0 when its prompts carry none (the model then builds no A)
 * @param localSteps              the local steps of a client's round among which an injected crash falls (a crash
 *                                drawn past the method's last step does not happen)
 * @param whiteBoxPromptPositions the most positions before a row its white-box prompt may take (a soft prompt's
 *                                vectors, a prefix), which a white-box model keeps free of row tokens; 0 for a
 *                                black-box method
 * @param heldApartPerClass       for a personalised method, the examples per class of each client's rows held apart
 *                                from the federated training data, and again of its dev rows ({@link HeldApart});
 *                                0 for none
 * @param heldApartKey            the setting that sets {@code heldApartPerClass}, which an error about too few rows
 *                                names; null when there are none
 */
public record MethodNeeds(int projectionDimension, int localSteps, int whiteBoxPromptPositions,
                          int heldApartPerClass, String heldApartKey) {
    public MethodNeeds {
        if (projectionDimension < 0 || localSteps < 1 || whiteBoxPromptPositions < 0 || heldApartPerClass < 0) {
            throw new IllegalArgumentException("projectionDimension >= 0, localSteps >= 1, "
                    + "whiteBoxPromptPositions >= 0 and heldApartPerClass >= 0, got " + projectionDimension + ", "
                    + localSteps + ", " + whiteBoxPromptPositions + ", " + heldApartPerClass);
        }
        if (heldApartPerClass > 0 && heldApartKey == null) {
            throw new IllegalArgumentException("held-apart rows need the key that sets them, for errors to name");
        }
    }

    /** A method that asks for no held-apart rows. */
    public MethodNeeds(int projectionDimension, int localSteps, int whiteBoxPromptPositions) {
        this(projectionDimension, localSteps, whiteBoxPromptPositions, 0, null);
    }

    /** A black-box method whose prompts carry z of length {@code dimension} (0: none). */
    public static MethodNeeds blackBox(int dimension, int localSteps) {
        return new MethodNeeds(dimension, localSteps, 0);
    }
}
