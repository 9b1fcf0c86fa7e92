package dev.fedbpt.actors;

import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.inference.ScoringModel;

/** Opens one model session for an experiment; called once per inference worker. */
@FunctionalInterface
public interface ModelFactory {
    ScoringModel load(ExperimentConfig config);
}
