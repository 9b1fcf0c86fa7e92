package dev.fedbpt.engine.cmaes;

import org.apache.commons.math3.random.RandomGenerator;

/** An evolution strategy as a pure ask/tell state machine (minimisation): it never evaluates anything itself. */
public interface AskTell {
    /** The next generation's candidates, drawn from {@code rng}. */
    double[][] ask(RandomGenerator rng);

    /** Updates the search from evaluated solutions. */
    void tell(double[][] solutions, double[] fitness);

    double sigma();

    /** A copy of the mean. */
    double[] mean();

    /** A deep copy of the full state. */
    CmaesState state();

    /** An independent copy that behaves bit for bit as this instance would. */
    AskTell copy();
}
