package dev.fedbpt.config;

import dev.fedbpt.engine.method.SettingException;

/** Bad configuration: names the key (or file) and what was expected. The CLI maps it to exit code 2. */
public final class ConfigError extends RuntimeException {
    private final String key;

    public ConfigError(String key, String message) {
        super(key == null ? message : key + ": " + message);
        this.key = key;
    }

    /**
     * @param where the file and line ({@code a.conf:3}) or the {@code --set} the value came from; null when unknown
     */
    public ConfigError(String where, String key, String message) {
        super((where == null ? "" : where + ": ") + (key == null ? message : key + ": " + message));
        this.key = key;
    }

    /** A message written whole (several problems at once, each naming its own key), {@code key} the first. */
    private ConfigError(String key, StringBuilder whole) {
        super(whole.toString());
        this.key = key;
    }

    static ConfigError listing(String firstKey, String message) {
        return new ConfigError(firstKey, new StringBuilder(message));
    }

    /** A method's setting that failed its rules, named by its full key. */
    public static ConfigError of(SettingException e) {
        return new ConfigError(ConfigLoader.ROOT + "." + e.key(), e.getMessage());
    }

    /** The offending configuration key, or null when the error is about a whole file. */
    public String key() {
        return key;
    }
}
