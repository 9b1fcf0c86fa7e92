package dev.fedbpt.engine.method;

import java.util.List;

/**
 * One client's local work in one round, as a pure state machine in the spirit of pycma's ask/tell: {@link #next()}
 * says what it needs (scores of some prompts on some rows) or that it has finished with an upload; the caller does
 * the work and hands the answer to {@link #onScores}. It never calls a model or the network, so the same procedure
 * runs inside an actor, a cluster entity or {@code LocalSimulation}.
 */
public interface ClientProcedure {

    /** The current step (the same object until the step is answered). */
    Step next();

    /**
     * The class scores of the pending {@link ScorePrompts}: [prompt][row][class], rows in the order asked.
     *
     * @throws IllegalStateException when no scores are pending
     * @throws IllegalArgumentException when the shape does not match the request
     */
    void onScores(float[][][] scores);

    /**
     * The answer to the pending {@link ComputeGradient}.
     *
     * @throws IllegalStateException when no gradient is pending (every procedure that never asks for one)
     */
    default void onGradient(Gradient gradient) {
        throw new IllegalStateException("no gradient is pending");
    }

    /**
     * The answer to the pending {@link LayerKernels}: [layer][row][row].
     *
     * @throws IllegalStateException when none is pending (every procedure that never asks)
     */
    default void onLayerKernels(double[][][] kernels) {
        throw new IllegalStateException("no layer kernels are pending");
    }

    /** Scores or losses that came back NaN or infinite so far (reported as incidents of the round). */
    int nonFiniteCount();

    /**
     * Checks {@code scores} against the {@code pending} request (null: none pending), as {@link #onScores} must.
     *
     * @throws IllegalStateException    when no scores are pending
     * @throws IllegalArgumentException when the shape does not match the request
     */
    static void checkShape(ScorePrompts pending, float[][][] scores) {
        if (pending == null) {
            throw new IllegalStateException("no scores are pending");
        }
        if (scores.length != pending.prompts().size()) {
            throw new IllegalArgumentException("scores for " + scores.length + " prompts, asked "
                    + pending.prompts().size());
        }
        for (float[][] perPrompt : scores) {
            if (perPrompt.length != pending.rows().size()) {
                throw new IllegalArgumentException("scores for " + perPrompt.length + " rows, asked "
                        + pending.rows().size());
            }
        }
    }

    /** What the procedure needs next. */
    sealed interface Step permits ScorePrompts, ComputeGradient, LayerKernels, Finished {}

    /** The request's step index (a fault injected "at step k" strikes the k-th request); -1 for {@link Finished}. */
    static int stepIndex(Step step) {
        if (step instanceof ScorePrompts s) return s.step();
        if (step instanceof ComputeGradient g) return g.step();
        if (step instanceof LayerKernels k) return k.step();
        return -1;
    }

    /**
     * Score every prompt on every row. {@code step} counts the requests of this round from 0 (a fault injected
     * "at step k" strikes the k-th request).
     *
     * @param labelRows null, or for each row the row whose label position (a masked LM's [MASK]) it is read at: a
     *                  perturbed copy, whose [MASK] may have been replaced, is read where its clean row has it, as
     *                  FedBPT's reference code reads it (data_process.py's perturb_dataset keeps mask_pos); each of
     *                  the length of its row
     */
    record ScorePrompts(int step, List<Prompt> prompts, List<int[]> rows, List<int[]> labelRows) implements Step {
        public ScorePrompts {
            prompts = List.copyOf(prompts);
            rows = List.copyOf(rows);
            if (labelRows != null) {
                labelRows = List.copyOf(labelRows);
                if (labelRows.size() != rows.size()) {
                    throw new IllegalArgumentException(rows.size() + " rows but " + labelRows.size() + " label rows");
                }
                for (int i = 0; i < rows.size(); i++) {
                    if (labelRows.get(i).length != rows.get(i).length) {
                        throw new IllegalArgumentException("row " + i + " has " + rows.get(i).length
                                + " tokens, its label row " + labelRows.get(i).length);
                    }
                }
            }
        }

        /** Rows read where they are themselves labelled. */
        public ScorePrompts(int step, List<Prompt> prompts, List<int[]> rows) {
            this(step, prompts, rows, null);
        }
    }

    /**
     * The loss of {@code rows} with {@code labels} under {@code prompt} and its gradient: one local step of a
     * white-box method. {@code step} counts the requests of this round from 0, as for {@link ScorePrompts}.
     */
    record ComputeGradient(int step, Prompt.Deep prompt, List<int[]> rows, int[] labels) implements Step {
        public ComputeGradient {
            rows = List.copyOf(rows);
            if (labels.length != rows.size()) {
                throw new IllegalArgumentException(rows.size() + " rows but " + labels.length + " labels");
            }
        }
    }

    /**
     * For every layer of the model without a prompt, the cosine similarity between each two of {@code rows}, each
     * row's hidden states of that layer flattened over its positions (padding included, as a padded batch has them):
     * what FedPepTAO scores layers by. {@code step} counts the requests of this round from 0.
     */
    record LayerKernels(int step, List<int[]> rows) implements Step {
        public LayerKernels {
            rows = List.copyOf(rows);
        }
    }

    /** The round's work is done: send {@code upload}; keep {@code memory} (null: nothing) for the next round. */
    record Finished(Upload upload, ClientMemory memory) implements Step {
        public Finished {
            if (upload == null) {
                throw new IllegalArgumentException("upload must not be null");
            }
        }
    }
}
