package dev.fedbpt.engine.method;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What a method package says about the configuration keys it owns, so that the configuration module can load,
 * check and store them without knowing them: keys whose value follows another key (a profile), what a stored run
 * folder's missing keys ran with, which stored runs cannot continue, and the ranges of every value. Keys are under
 * {@code fedbpt.}; values are read and returned as the configuration writes them (strings). Registered in
 * {@link Methods#settingsRules()}.
 */
public interface SettingsRules {
    /**
     * The values that replace those that follow another key.
     *
     * @param value a key's configured value, or null when the key is absent
     * @throws SettingException when the key they follow has a value these rules do not know
     */
    default Map<String, String> resolve(Function<String, String> value) {
        return Map.of();
    }

    /**
     * For a run folder's stored configuration: the values its missing keys ran with when those were not yet the
     * defaults (a key added later defaults to what runs did before it existed, unless named here).
     *
     * @param stored a key's stored value, or null when the folder predates the key
     */
    default Map<String, String> beforeKeysExisted(Function<String, String> stored) {
        return Map.of();
    }

    /** The entries of {@code ranWith} whose key {@code stored} lacks: what {@link #beforeKeysExisted} returns. */
    static Map<String, String> absent(Function<String, String> stored, Map<String, String> ranWith) {
        Map<String, String> missing = new java.util.TreeMap<>();
        ranWith.forEach((key, value) -> {
            if (stored.apply(key) == null) {
                missing.put(key, value);
            }
        });
        return missing;
    }

    /**
     * Refuses a stored configuration that this version cannot continue (a rule that no longer exists).
     *
     * @throws SettingException naming the key, saying why
     */
    default void checkResumable(Function<String, String> stored) {}

    /**
     * Keys whose value sets other keys (a profile). Where such a key and the keys it sets vary together over a set of
     * runs, a report names only it: the others say nothing more about those runs.
     */
    default List<String> leadingKeys() {
        return List.of();
    }

    /**
     * The methods that read the {@link #leadingKeys} (and the keys they set). Every configuration holds them, whatever
     * its method; for any other method a report leaves them out, as they say nothing about its runs.
     */
    default List<String> leadingKeysReaders() {
        return List.of();
    }

    /** Checks every value these rules own (after {@link #resolve}); {@link SettingException} names the key. */
    default void validate(MethodSettings settings) {}

    /**
     * Keys these rules own that change a run's numbers but not how many rows of what length a round scores (for
     * estimating a sweep's time from runs like its cells).
     */
    default List<String> sameWorkKeys() {
        return List.of();
    }

    /** What besides its keys decides a round's work when one of {@link #sameWorkKeys} is not enough (e.g. zero). */
    default String workClass(MethodSettings settings) {
        return "";
    }
}
