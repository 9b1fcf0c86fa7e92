package dev.fedbpt.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The two readings of FedBPT ({@code search.profile}) as the values they give each of their items, and how a run
 * folder written before profiles existed reads. The one place either table lives.
 *
 * <p>A key set to {@value #FROM_PROFILE} takes its profile's value; {@link ConfigLoader} writes the resolved value
 * into the configuration a run folder stores, so a stored run never depends on this table again.
 */
public final class Profiles {
    /** The value that makes a key follow {@code search.profile}. */
    public static final String FROM_PROFILE = "profile";

    /** Key (under {@code fedbpt.}) -> {paper's value, reference-code's value}. */
    private static final Map<String, String[]> ITEMS = new LinkedHashMap<>();

    static {
        ITEMS.put("search.step-rule", new String[] {"paper-eq6", "reference-code"});
        ITEMS.put("search.cmaes-variant", new String[] {"tutorial", "pycma"});
        ITEMS.put("search.server-cmaes", new String[] {"tutorial", "pycma"});
        ITEMS.put("search.uploaded-sigmas", new String[] {"used", "used"});
        ITEMS.put("search.client-start", new String[] {"global-state", "light-copy"});
        ITEMS.put("search.client-ranking", new String[] {"clean-loss", "ratio-fitness"});
        ITEMS.put("search.perturbation-mask", new String[] {"per-iteration", "per-round"});
        ITEMS.put("search.fedavg-weights", new String[] {"samples", "uniform"});
        ITEMS.put("search.fedavg-paths", new String[] {"average", "reset"});
        ITEMS.put("model.prompt-injection", new String[] {"prepend", "add-after-layernorm"});
    }

    /**
     * What a run folder's {@code config.conf} without {@code search.profile} ran with, for each key it lacks: the
     * paper reading as fedbpt implemented it before profiles, whose clients uploaded the sigma after each update.
     */
    private static final Map<String, String> BEFORE_PROFILES = Map.of(
            "search.profile", "paper",
            "search.uploaded-sigmas", "after-tell");

    private Profiles() {}

    /** The keys a profile sets. */
    public static java.util.Set<String> items() {
        return java.util.Collections.unmodifiableSet(ITEMS.keySet());
    }

    /** Every item a profile sets, with the value {@code config} runs it with, by key (in the table's order). */
    public static Map<String, String> itemsOf(ExperimentConfig config) {
        Config root = com.typesafe.config.ConfigFactory.parseString(config.resolvedHocon()).getConfig(ConfigLoader.ROOT);
        Map<String, String> out = new LinkedHashMap<>();
        for (String key : ITEMS.keySet()) {
            out.put(key, root.getString(key));
        }
        return out;
    }

    /** The value {@code profile} gives {@code key}. */
    public static String valueOf(ExperimentConfig.Profile profile, String key) {
        String[] values = ITEMS.get(key);
        if (values == null) {
            throw new IllegalArgumentException(key + " is not set by a profile");
        }
        return values[profile.ordinal()];
    }

    /** {@code config} (under {@code fedbpt}) with every key that says {@value #FROM_PROFILE} set to its profile's value. */
    public static Config resolve(Config config, ExperimentConfig.Profile profile) {
        Config resolved = config;
        for (String key : ITEMS.keySet()) {
            if (config.hasPath(key) && FROM_PROFILE.equals(config.getString(key))) {
                resolved = resolved.withValue(key, ConfigValueFactory.fromAnyRef(valueOf(profile, key)));
            }
        }
        return resolved;
    }

    /**
     * A stored run folder's configuration (under {@code fedbpt}) completed for this version: a folder written before
     * {@code search.profile} existed reads as it ran ({@link #BEFORE_PROFILES}); any other key it predates reads as
     * its default, which is what runs did before the key existed. Keys that follow the profile are resolved.
     */
    public static Config storedWithDefaults(Config stored) {
        Config completed = stored;
        if (!stored.hasPath("search.profile")) {
            for (Map.Entry<String, String> legacy : BEFORE_PROFILES.entrySet()) {
                if (!stored.hasPath(legacy.getKey())) {
                    completed = completed.withValue(legacy.getKey(), ConfigValueFactory.fromAnyRef(legacy.getValue()));
                }
            }
        }
        Config withDefaults = completed.withFallback(ConfigLoader.reference()).resolve();
        String profile = withDefaults.getString("search.profile");
        for (ExperimentConfig.Profile p : ExperimentConfig.Profile.values()) {
            if (ConfigLoader.valueName(p).equals(profile)) {
                return resolve(withDefaults, p);
            }
        }
        return withDefaults; // an unknown profile is refused, naming the key, when the configuration is read
    }
}
