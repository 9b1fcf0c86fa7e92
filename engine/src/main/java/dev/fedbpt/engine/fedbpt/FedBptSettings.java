package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.method.MethodEntry;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.SettingException;
import dev.fedbpt.engine.method.SettingsRules;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * FedBPT's settings (the {@code search} section) and its two readings, {@code search.profile} = paper |
 * reference-code, as the values they give each of their items: the one place either table lives. A key set to
 * {@value #FROM_PROFILE} takes its profile's value; the configuration module stores the resolved value, so a stored
 * run never depends on this table again.
 */
public final class FedBptSettings implements SettingsRules {
    /** The value that makes a key follow {@code search.profile}. */
    public static final String FROM_PROFILE = "profile";
    static final String PROFILE = "search.profile";
    private static final List<String> PROFILES = List.of("paper", "reference-code");

    /** Key -> {paper's value, reference-code's value}. */
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
     * What a run folder's configuration without {@code search.profile} ran with, for each key it lacks: the paper
     * reading as fedbpt implemented it before profiles, whose clients uploaded the sigma after each update.
     */
    private static final Map<String, String> BEFORE_PROFILES = Map.of(
            PROFILE, "paper",
            "search.uploaded-sigmas", "after-tell");

    /** The value {@code profile} gives {@code key}. */
    static String valueOf(String profile, String key) {
        String[] values = ITEMS.get(key);
        if (values == null) {
            throw new IllegalArgumentException(key + " is not set by a profile");
        }
        return values[profileIndex(profile)];
    }

    private static int profileIndex(String profile) {
        int index = PROFILES.indexOf(profile);
        if (index < 0) {
            throw new SettingException(PROFILE, "expected one of " + String.join(", ", PROFILES) + ", got '"
                    + profile + "'");
        }
        return index;
    }

    @Override
    public Map<String, String> resolve(Function<String, String> value) {
        Map<String, String> resolved = new LinkedHashMap<>();
        String profile = value.apply(PROFILE);
        for (String key : ITEMS.keySet()) {
            if (FROM_PROFILE.equals(value.apply(key))) {
                resolved.put(key, valueOf(profile, key));
            }
        }
        return resolved;
    }

    @Override
    public Map<String, String> beforeKeysExisted(Function<String, String> stored) {
        Map<String, String> missing = new LinkedHashMap<>();
        if (stored.apply(PROFILE) == null) {
            BEFORE_PROFILES.forEach((key, value) -> {
                if (stored.apply(key) == null) {
                    missing.put(key, value);
                }
            });
        }
        return missing;
    }

    @Override
    public void checkResumable(Function<String, String> stored) {
        if (stored.apply(PROFILE) == null && "reference-code".equals(stored.apply("search.step-rule"))) {
            throw new SettingException("search.step-rule", "ran fedbpt's first reading of the reference code's step"
                    + " rule, with a clamp the reference code never applies; that rule no longer exists, so this run"
                    + " cannot be continued (its results stay readable by `fedbpt report`)");
        }
    }

    @Override
    public void validate(MethodSettings s) {
        profileIndex(s.text(PROFILE));
        dimension(s);
        s.number("search.sigma0", 1e-12, 1e6);
        localIterations(s);
        s.integer("search.population", 2, 100_000);
        s.number("search.perturbation-rate", 0.0, 0.99);
        FedBptMethods.fedBptStrategy(s);
        FedBptMethods.fedAvgStrategy(s);
        FedBptMethods.clientSearch(s, false);
    }

    /** d, the length of z. */
    public static int dimension(MethodSettings s) {
        return s.integer("search.dimension", 1, 100_000);
    }

    /** A client's CMA-ES iterations per round. */
    public static int localIterations(MethodSettings s) {
        return s.integer("search.local-iterations", 1, 100_000);
    }

    /** The profile sets every item that is not set on its own. */
    @Override
    public List<String> leadingKeys() {
        return List.of(PROFILE);
    }

    /** The methods that search, which record the reading they ran in result.json; the baselines read none of it. */
    @Override
    public List<String> leadingKeysReaders() {
        return FedBptMethods.entries().stream().filter(entry -> entry.traits().runsRounds()).map(MethodEntry::name)
                .toList();
    }

    /** The search settings that change the numbers but not the rows a round scores. */
    @Override
    public List<String> sameWorkKeys() {
        return List.of("search.perturbation-rate", "search.step-rule", "search.cmaes-variant", "search.fedavg-paths",
                "search.sigma0");
    }

    /** Of the perturbation rate only whether it is 0 counts: a zero rate scores no perturbed rows. */
    @Override
    public String workClass(MethodSettings s) {
        return s.number("search.perturbation-rate") > 0 ? "perturbed" : "clean";
    }

    /**
     * What result.json records of the reading that ran: the profile, the step rule and the clients' CMA-ES, and
     * every item a profile sets with the value the run used; and the width of the clients' uploads.
     */
    static Map<String, Object> reading(MethodSettings s) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("profile", s.text(PROFILE));
        fields.put("step_rule", s.text("search.step-rule"));
        fields.put("cmaes_variant", s.text("search.cmaes-variant"));
        Map<String, String> items = new LinkedHashMap<>();
        for (String key : ITEMS.keySet()) {
            items.put(key, s.text(key));
        }
        fields.put("reading", items);
        fields.put("upload_precision", s.text("search.upload-precision"));
        return fields;
    }
}
