package dev.fedbpt.actors;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.method.SettingException;
import java.util.Locale;
import java.util.function.Function;

/** The method an experiment names ({@code experiment.method}), built from the registry with its settings. */
public final class ConfiguredMethod {
    private ConfiguredMethod() {}

    public static FederatedMethod of(ExperimentConfig config) {
        String name = config.experiment().method();
        try {
            return Methods.create(name, new Settings(ConfigFactory.parseString(config.resolvedHocon())
                    .getConfig(ConfigLoader.ROOT)));
        } catch (SettingException e) {
            throw new ConfigError(ConfigLoader.ROOT + "." + e.key(), e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new ConfigError(ConfigLoader.ROOT + ".experiment.method", e.getMessage());
        }
    }

    /** The resolved configuration under {@code fedbpt.}; errors name the full key. */
    private record Settings(Config root) implements MethodSettings {
        @Override
        public int integer(String key) {
            return read(key, root::getInt);
        }

        @Override
        public double number(String key) {
            return read(key, root::getDouble);
        }

        @Override
        public String text(String key) {
            return read(key, root::getString);
        }

        @Override
        public <E extends Enum<E>> E choice(String key, Class<E> type) {
            String value = text(key);
            try {
                return Enum.valueOf(type, value.toUpperCase(Locale.ROOT).replace('-', '_'));
            } catch (IllegalArgumentException e) {
                throw new ConfigError(ConfigLoader.ROOT + "." + key, "'" + value + "' is not one of "
                        + java.util.Arrays.stream(type.getEnumConstants()).map(ConfigLoader::valueName).toList());
            }
        }

        private static <T> T read(String key, Function<String, T> getter) {
            try {
                return getter.apply(key);
            } catch (ConfigException e) {
                throw new ConfigError(ConfigLoader.ROOT + "." + key, e.getMessage());
            }
        }
    }
}
