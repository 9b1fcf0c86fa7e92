package dev.fedbpt.actors;

import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.inference.ModelTokenizer;
import dev.fedbpt.inference.ScoringModel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

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

    /**
     * Refuses, before anything is stored, what {@link #load} would refuse that can be told without loading (a device
     * this machine or build lacks): a run folder claimed for a run that could never start would hold a configuration
     * the corrected one differs from.
     */
    default void check(ExperimentConfig config) {}

    /** One session per inference worker ({@code pool.workers}); if one fails to load, those loaded are closed. */
    default List<ScoringModel> loadWorkers(ExperimentConfig config) {
        return loadEach(config.pool().workers(), () -> load(config));
    }

    /** {@code workers} models from {@code load}; if one fails to load, those loaded are closed. */
    static List<ScoringModel> loadEach(int workers, Supplier<ScoringModel> load) {
        List<ScoringModel> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < workers; i++) {
                sessions.add(load.get());
            }
            return sessions;
        } catch (RuntimeException e) {
            sessions.forEach(ScoringModel::close);
            throw e;
        }
    }
}
