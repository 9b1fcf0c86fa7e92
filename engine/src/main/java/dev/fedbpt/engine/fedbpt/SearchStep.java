package dev.fedbpt.engine.fedbpt;

import java.util.List;

/** What a {@link ClientSearch} needs next. */
public sealed interface SearchStep permits SearchStep.Evaluate, SearchStep.Done {

    /**
     * Score every candidate z on cleanRows (and on perturbedRows when not null) and pass the class scores back,
     * indexed [candidate][row][class]. iteration == config.iterations() is the final evaluation of the mean alone.
     */
    record Evaluate(int iteration, double[][] candidates, List<int[]> cleanRows, List<int[]> perturbedRows)
            implements SearchStep {
    }

    /** The local search finished; upload the result. */
    record Done(LocalResult result) implements SearchStep {
    }
}
