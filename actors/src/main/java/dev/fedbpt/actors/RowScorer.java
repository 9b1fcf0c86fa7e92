package dev.fedbpt.actors;

import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.PromptScorer;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.inference.ScoringModel;
import java.util.List;

/** One forward pass over a batch of rows, returning class scores per row. A model session, or a fake in tests. */
@FunctionalInterface
public interface RowScorer {
    float[][] score(List<ScoreRow> rows);

    /**
     * What answers this worker's white-box units (a deep prompt's scores, a gradient): a model that can train, or by
     * default nothing (a forward-only model refuses them).
     */
    default PromptScorer units() {
        return RowScorer::forwardOnly;
    }

    /** A worker's scorer over {@code model}: its rows, and its white-box units when the model can train. */
    static RowScorer of(ScoringModel model) {
        if (!(model instanceof PromptScorer trainable)) {
            return model::score;
        }
        return new RowScorer() {
            @Override
            public float[][] score(List<ScoreRow> rows) {
                return model.score(rows);
            }

            @Override
            public PromptScorer units() {
                return trainable;
            }
        };
    }

    private static float[][] forwardOnly(Prompt prompt, List<int[]> rows) {
        throw new UnsupportedOperationException("a deep prompt reached a forward-only model; white-box methods need "
                + "model.backend = pytorch");
    }
}
