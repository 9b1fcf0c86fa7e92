package dev.fedbpt.engine.method;

import java.util.Locale;
import java.util.Map;

/** Settings from a map of key to value as a configuration would write it (for tests); a missing key throws. */
public record MapSettings(Map<String, String> values) implements MethodSettings {
    @Override
    public int integer(String key) {
        return Integer.parseInt(get(key));
    }

    @Override
    public double number(String key) {
        return Double.parseDouble(get(key));
    }

    @Override
    public String text(String key) {
        return get(key);
    }

    @Override
    public <E extends Enum<E>> E choice(String key, Class<E> type) {
        return Enum.valueOf(type, get(key).toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    private String get(String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("no test value for " + key);
        }
        return value;
    }
}
