package dev.fedbpt.actors;

import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.method.ModelFacts;
import dev.fedbpt.engine.method.SettingException;

/** The method an experiment names ({@code experiment.method}), built from the registry with its settings. */
public final class ConfiguredMethod {
    private ConfiguredMethod() {}

    /** For callers that never run a method needing the model (benchmarks, tests of other methods). */
    public static FederatedMethod of(ExperimentConfig config) {
        return of(config, ModelFacts.NONE);
    }

    public static FederatedMethod of(ExperimentConfig config, ModelFacts model) {
        String name = config.experiment().method();
        try {
            return Methods.create(name, new MethodContext(config.settings(),
                    config.experiment().traits().federatedRounds(config.experiment().rounds()),
                    config.experiment().seed(), model));
        } catch (SettingException e) {
            throw ConfigError.of(e);
        } catch (IllegalArgumentException e) {
            throw new ConfigError(ConfigLoader.ROOT + ".experiment.method", e.getMessage());
        }
    }
}
