package dev.fedbpt.actors;

import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.inference.ModelTokenizer;
import dev.fedbpt.inference.ScoringModel;

/** Opens one model session for an experiment; called once per inference worker. */
@FunctionalInterface
public interface ModelFactory {
    ScoringModel load(ExperimentConfig config);

    /**
     * The model's tokenizer alone, for a cluster member that prepares data but scores nothing: it must encode as
     * {@link #load}'s model does. A whole model by default, which is right, only not light.
     */
    default ModelTokenizer tokenizer(ExperimentConfig config) {
        return load(config);
    }
}
