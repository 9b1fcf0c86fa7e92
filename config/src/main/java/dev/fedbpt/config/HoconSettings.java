package dev.fedbpt.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.SettingException;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A method's view of a resolved configuration (the tree under {@code fedbpt}): every bad value is a
 * {@link SettingException} naming its key, which the loader turns into a {@link ConfigError} (exit code 2).
 */
public record HoconSettings(Config root) implements MethodSettings {
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
    public boolean flag(String key) {
        return read(key, root::getBoolean);
    }

    @Override
    public <E extends Enum<E>> E choice(String key, Class<E> type) {
        String value = text(key);
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new SettingException(key, "expected one of " + Arrays.stream(type.getEnumConstants())
                    .map(ConfigLoader::valueName).collect(Collectors.joining(", ")) + ", got '" + value + "'");
        }
    }

    private static <T> T read(String key, Function<String, T> getter) {
        try {
            return getter.apply(key);
        } catch (ConfigException e) {
            throw new SettingException(key, e.getMessage().replaceFirst("^.*?: ", ""));
        }
    }
}
