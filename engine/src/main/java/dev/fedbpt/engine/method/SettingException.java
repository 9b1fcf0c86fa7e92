package dev.fedbpt.engine.method;

/** A method's setting that is missing or out of range; {@link #key()} names it (under {@code fedbpt.}). */
public final class SettingException extends IllegalArgumentException {
    private final String key;

    public SettingException(String key, String message) {
        super(message);
        this.key = key;
    }

    public String key() {
        return key;
    }
}
