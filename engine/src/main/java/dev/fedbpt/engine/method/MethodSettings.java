package dev.fedbpt.engine.method;

/**
 * A method's view of the experiment's validated configuration: values by key (under {@code fedbpt.}, e.g.
 * {@code search.population}). The configuration module implements it; a method reads the keys it owns.
 */
public interface MethodSettings {
    int integer(String key);

    double number(String key);

    String text(String key);

    /** A true/false value, else a {@link SettingException} naming the key. */
    default boolean flag(String key) {
        String value = text(key);
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new SettingException(key, "expected true or false, got '" + value + "'");
        };
    }

    /** {@link #integer} within [min, max], else a {@link SettingException} naming the key. */
    default int integer(String key, int min, int max) {
        int value = integer(key);
        if (value < min || value > max) {
            throw new SettingException(key, "must be in [" + min + ", " + max + "], was " + value);
        }
        return value;
    }

    /** {@link #number} within [min, max], else a {@link SettingException} naming the key. */
    default double number(String key, double min, double max) {
        double value = number(key);
        if (!(value >= min && value <= max)) {
            throw new SettingException(key, "must be in [" + min + ", " + max + "], was " + value);
        }
        return value;
    }

    /** The enum constant whose name is the value with '-' read as '_' (e.g. "light-copy" is LIGHT_COPY). */
    <E extends Enum<E>> E choice(String key, Class<E> type);
}
