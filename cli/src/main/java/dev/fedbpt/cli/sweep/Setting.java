package dev.fedbpt.cli.sweep;

/**
 * One configuration override of a sweep cell: {@code key} relative to {@code fedbpt}, {@code value} as HOCON text,
 * and {@code source}, the place in the sweep file (or command line) it came from, for error messages.
 */
public record Setting(String key, String value, String source) {
    /** The override as {@link dev.fedbpt.config.ConfigLoader} takes it. */
    public String text() {
        return key + "=" + value;
    }
}
