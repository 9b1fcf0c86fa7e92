package dev.fedbpt.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import dev.fedbpt.engine.data.TaskDefinition;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.method.SettingException;
import dev.fedbpt.engine.method.SettingsRules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Loads an experiment: reference defaults, then an optional experiment file, then {@code KEY=VALUE} overrides
 * (keys relative to {@code fedbpt}, e.g. {@code experiment.rounds=20}). Everything is validated up front.
 */
public final class ConfigLoader {
    public static final String ROOT = "fedbpt";
    private static final String DEFAULTS = "fedbpt-defaults.conf";

    private ConfigLoader() {}

    public static ExperimentConfig load(Path experimentFile, List<String> overrides) {
        Config reference = reference();
        Config merged = reference;
        if (experimentFile != null) {
            merged = parseFile(experimentFile).withFallback(merged);
        }
        return withOverrides(merged, overrides, reference);
    }

    /**
     * A run folder's stored configuration ({@code config.conf}), completed for this version as it ran
     * ({@link #completeStored}), with {@code overrides} on top. A folder whose rules no longer exist is refused.
     */
    public static ExperimentConfig loadRunFolder(Path configFile, List<String> overrides) {
        Config reference = reference();
        Config stored = parseFile(configFile);
        rejectUnknownKeys(stored, reference);
        for (SettingsRules rules : Methods.settingsRules()) {
            try {
                rules.checkResumable(valuesOf(stored));
            } catch (SettingException e) {
                throw new ConfigError(ROOT + "." + e.key(), configFile + " " + e.getMessage());
            }
        }
        return withOverrides(completeStored(stored), overrides, reference);
    }

    /**
     * A stored run folder's configuration (under {@code fedbpt}) completed for this version: a key the folder
     * predates reads as what runs did before it existed, which is its default unless the method's rules say
     * otherwise ({@link SettingsRules#beforeKeysExisted}); keys that follow another (a profile) are resolved.
     */
    public static Config completeStored(Config stored) {
        Config completed = stored;
        String testLimit = valuesOf(stored).apply("data.test-limit");
        if (valuesOf(stored).apply("data.test-sample") == null && testLimit != null && !testLimit.equals("0")) {
            completed = completed.withValue("data.test-sample", literal("first")); // a capped test set kept its head
        }
        for (SettingsRules rules : Methods.settingsRules()) {
            for (Map.Entry<String, String> missing : rules.beforeKeysExisted(valuesOf(stored)).entrySet()) {
                completed = completed.withValue(missing.getKey(), literal(missing.getValue()));
            }
        }
        Config withDefaults = completed.withFallback(reference()).resolve();
        try {
            return applyRules(withDefaults);
        } catch (ConfigError unknownValue) {
            return withDefaults; // refused, naming the key, when the configuration is read
        }
    }

    /** A value the method rules give as text, as the configuration would hold it written out: true, false, text. */
    private static ConfigValue literal(String value) {
        return ConfigValueFactory.fromAnyRef("true".equals(value) || "false".equals(value) ? Boolean.valueOf(value)
                : value);
    }

    private static ExperimentConfig withOverrides(Config base, List<String> overrides, Config reference) {
        Config merged = base;
        for (String override : overrides) { // a later override wins over an earlier one
            merged = parseOverride(override).withFallback(merged);
        }
        ConfigProblems problems = new ConfigProblems();
        rejectUnknownKeys(merged, reference, problems);
        Config known = merged;
        for (String unknown : problems.keys()) {
            known = known.withoutPath(unknown.substring(ROOT.length() + 1));
        }
        try {
            return read(applyRules(known.resolve()), problems);
        } catch (ConfigError e) {
            problems.addUnlessListed(e);
        }
        problems.throwIfAny();
        throw new IllegalStateException("unreachable: a configuration error was recorded");
    }

    /**
     * {@code config} with every value the methods' rules resolve (keys that follow a profile) written in, and
     * {@code model.head = default} as the model's own head: masked-lm for a bundled masked LM, similarity otherwise.
     */
    private static Config applyRules(Config config) {
        Config resolved = config;
        if ("default".equals(valuesOf(config).apply("model.head"))) {
            boolean maskedLm = "".equals(valuesOf(config).apply("model.onnx"))
                    && ExperimentConfig.MASKED_LM_MODELS.contains(valuesOf(config).apply("model.bundled"));
            resolved = resolved.withValue("model.head", ConfigValueFactory.fromAnyRef(maskedLm ? "masked-lm"
                    : "similarity"));
        }
        for (SettingsRules rules : Methods.settingsRules()) {
            try {
                for (Map.Entry<String, String> value : rules.resolve(valuesOf(config)).entrySet()) {
                    resolved = resolved.withValue(value.getKey(), ConfigValueFactory.fromAnyRef(value.getValue()));
                }
            } catch (SettingException e) {
                throw ConfigError.of(e);
            }
        }
        return resolved;
    }

    /** A key's value as written (null when absent or not a plain value). */
    private static Function<String, String> valuesOf(Config config) {
        return key -> {
            try {
                return config.hasPath(key) ? config.getString(key) : null;
            } catch (ConfigException.WrongType e) {
                return null;
            }
        };
    }

    /**
     * Every key with its default value (under {@code fedbpt}, without the root). A key added after a run was made
     * defaults to what runs did before it existed, so this is also what an older run folder's missing keys were.
     */
    public static Config reference() {
        return ConfigFactory.parseResources(ConfigLoader.class.getClassLoader(), DEFAULTS).getConfig(ROOT);
    }

    public static ExperimentConfig loadDefaults() {
        return load(null, List.of());
    }

    private static Config parseFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigError(null, "config file " + file + " does not exist or is not a file");
        }
        try {
            Config parsed = ConfigFactory.parseFile(file.toFile(),
                    ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false));
            return parsed.hasPath(ROOT) ? parsed.getConfig(ROOT) : parsed;
        } catch (ConfigException e) {
            String unclosed = UnclosedBraces.describe(file);
            throw new ConfigError(null, unclosed != null ? file + ": " + unclosed
                    : "cannot parse " + file + ": " + e.getMessage());
        }
    }

    /** The key of a {@code KEY=VALUE} override, without the {@code fedbpt.} root it may be written with. */
    public static String overrideKey(String override) {
        int eq = override.indexOf('=');
        if (eq <= 0) {
            throw new ConfigError(null, "override '" + override + "' is not of the form KEY=VALUE");
        }
        String key = override.substring(0, eq).trim();
        return key.startsWith(ROOT + ".") ? key.substring(ROOT.length() + 1) : key;
    }

    private static Config parseOverride(String override) {
        String key = overrideKey(override);
        String value = override.substring(override.indexOf('=') + 1).trim();
        try {
            return ConfigFactory.parseString(key + " = " + quoteIfNeeded(value),
                    ConfigParseOptions.defaults().setOriginDescription("--set " + key + "=" + value));
        } catch (ConfigException e) {
            throw new ConfigError(key, "cannot parse override value '" + value + "': " + e.getMessage());
        }
    }

    private static String quoteIfNeeded(String value) {
        if (value.isEmpty()) {
            return "\"\"";
        }
        // Paths and other strings with HOCON-special characters must be quoted; numbers and words need not be.
        boolean plain = value.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '_'
                || c == ' ');
        // A list is written as HOCON writes it: [a, b] (its elements parse as they would in a file).
        boolean list = value.startsWith("[") && value.endsWith("]");
        return plain || list || value.startsWith("\"") ? value : ConfigValueQuoting.quote(value);
    }

    private static void rejectUnknownKeys(Config user, Config reference) {
        ConfigProblems problems = new ConfigProblems();
        rejectUnknownKeys(user, reference, problems);
        problems.throwIfAny();
    }

    private static void rejectUnknownKeys(Config user, Config reference, ConfigProblems problems) {
        Set<String> valid = new TreeSet<>();
        for (Map.Entry<String, ConfigValue> entry : reference.entrySet()) {
            valid.add(entry.getKey());
        }
        Map<String, ConfigValue> byKey = new TreeMap<>(); // reported in key order, whatever the file's order
        for (Map.Entry<String, ConfigValue> entry : user.entrySet()) {
            byKey.put(entry.getKey(), entry.getValue());
        }
        for (Map.Entry<String, ConfigValue> entry : byKey.entrySet()) {
            if (!valid.contains(entry.getKey())) {
                problems.add(entry.getValue(), ROOT + "." + entry.getKey(), "unknown key; did you mean " + ROOT + "."
                        + KeySuggester.nearest(entry.getKey(), valid) + "?");
            }
        }
    }

    /** One client per domain: the files name their domain, held-out ones are domains, personalised needs domains. */
    private static void checkDomains(ExperimentConfig.Data data) {
        boolean domains = data.split() == ExperimentConfig.Split.DOMAINS;
        if (domains) {
            if (data.domains().size() < 2) {
                throw new ConfigError(ROOT + ".data.domains", "split = domains needs at least two domains (one client "
                        + "each), got " + data.domains());
            }
            if (new java.util.HashSet<>(data.domains()).size() != data.domains().size()) {
                throw new ConfigError(ROOT + ".data.domains", "names a domain twice: " + data.domains());
            }
            for (String key : List.of("train", "test")) {
                String file = key.equals("train") ? data.train() : data.test();
                if (!file.contains(ExperimentConfig.DOMAIN_PLACEHOLDER)) {
                    throw new ConfigError(ROOT + ".data." + key, "split = domains reads one file per domain: the "
                            + "path must contain " + ExperimentConfig.DOMAIN_PLACEHOLDER + ", got '" + file + "'");
                }
            }
            for (String heldOut : data.heldOut()) {
                if (!data.domains().contains(heldOut)) {
                    throw new ConfigError(ROOT + ".data.held-out", "'" + heldOut + "' is not one of data.domains "
                            + data.domains());
                }
            }
            if (data.heldOut().size() >= data.domains().size()) {
                throw new ConfigError(ROOT + ".data.held-out", "holds out every domain; at least one must take part");
            }
            if (data.evalSplit() == ExperimentConfig.EvalSplit.DEV) {
                throw new ConfigError(ROOT + ".data.eval-split", "dev is not drawn per domain yet; use test");
            }
        } else if (!data.heldOut().isEmpty()) {
            throw new ConfigError(ROOT + ".data.held-out", "clients are held out by domain: it needs split = domains");
        }
    }

    /** Reads every key; type and range errors are collected in {@code problems} and thrown together at the end. */
    private static ExperimentConfig read(Config c, ConfigProblems problems) {
        Reader r = new Reader(c, reference(), problems);
        var experiment = new ExperimentConfig.Experiment(
                r.string("experiment.name"),
                r.longValue("experiment.seed"),
                r.oneOf("experiment.method", Methods.names().toArray(String[]::new)),
                r.intIn("experiment.rounds", 1, 1_000_000),
                r.intIn("experiment.eval-every", 1, 1_000_000));
        String task = r.nonEmpty("data.task");
        TaskDefinition definition = TaskFiles.load(task);
        var data = new ExperimentConfig.Data(
                task,
                r.string("data.dir"),
                r.nonEmpty("data.train"),
                r.nonEmpty("data.test"),
                format(r.oneOf("data.format", "auto", "tsv", "sst2", "agnews", "yelp", "columns"), definition),
                r.intIn("data.shots-per-class", 0, 1_000_000),
                r.enumValue("data.split", ExperimentConfig.Split.class),
                r.doubleIn("data.dirichlet-alpha", 1e-6, 1e6),
                r.intIn("data.test-limit", 0, Integer.MAX_VALUE),
                r.enumValue("data.test-sample", ExperimentConfig.TestSampling.class),
                r.enumValue("data.eval-split", ExperimentConfig.EvalSplit.class),
                r.intIn("data.dev-per-class", 1, 1_000_000),
                r.intIn("data.icl-examples", 1, 64),
                r.strings("data.domains"),
                r.strings("data.held-out"),
                r.enumValue("data.encoding", ExperimentConfig.Encoding.class),
                r.oneOf("data.empty-text", "refuse", "skip").equals("skip"),
                r.intIn("data.max-row-tokens", 0, 1_000_000),
                definition);
        checkDomains(data);
        if (data.format().equals("columns") && definition.columns() == null) {
            throw new ConfigError(ROOT + ".data.format", "columns reads the columns the task file gives, but task "
                    + definition.name() + " gives none (add a columns section to its task file)");
        }
        var federation = new ExperimentConfig.Federation(
                r.intIn("federation.clients", 1, 10_000_000),
                r.doubleIn("federation.sample-fraction", 1e-9, 1.0),
                r.doubleIn("federation.quorum", 1e-9, 1.0),
                r.positiveDuration("federation.round-deadline"),
                r.intIn("federation.max-attempts", 1, 1000),
                r.intIn("federation.held-out-clients", 0, 10_000_000));
        if (federation.heldOutClients() > 0) {
            if (data.split() == ExperimentConfig.Split.DOMAINS) {
                throw new ConfigError(ROOT + ".federation.held-out-clients", "with split = domains, data.held-out "
                        + "names the held-out domains");
            }
            if (federation.heldOutClients() >= federation.clients()) {
                throw new ConfigError(ROOT + ".federation.held-out-clients", "holds out " + federation.heldOutClients()
                        + " of " + federation.clients() + " clients; at least one must take part");
            }
            if (!Methods.traits(experiment.method()).personalised()) {
                throw new ConfigError(ROOT + ".federation.held-out-clients", "held-out clients only join a "
                        + "personalised method's personalisation round; " + experiment.method() + " has none");
            }
        }
        // The methods' own sections, checked by their rules whatever the method: a run never meets a bad value.
        for (SettingsRules rules : Methods.settingsRules()) {
            try {
                rules.validate(new HoconSettings(c));
            } catch (SettingException e) {
                throw ConfigError.of(e);
            }
        }
        var model = new ExperimentConfig.Model(
                r.enumValue("model.backend", ExperimentConfig.Backend.class),
                r.oneOf("model.bundled", ExperimentConfig.BUNDLED_MODELS.toArray(String[]::new)),
                r.string("model.onnx"),
                r.string("model.tokenizer"),
                r.enumValue("model.head", ExperimentConfig.Head.class),
                r.doubleIn("model.temperature", 1e-6, 1e6),
                r.intIn("model.prompt-length", 0, 4096),
                r.enumValue("model.prompt-injection", ExperimentConfig.PromptInjection.class),
                r.longValue("model.projection-seed"),
                r.intIn("model.intra-op-threads", 0, 1024),
                r.enumValue("model.pooling", ExperimentConfig.Pooling.class),
                r.bool("model.pool-token-prompt"),
                r.enumValue("model.precision", ExperimentConfig.Precision.class),
                r.device("model.device"));
        if (model.onnx().isEmpty() != model.tokenizer().isEmpty()) {
            throw new ConfigError("fedbpt.model.tokenizer",
                    "model.onnx and model.tokenizer must be given together (both empty = the bundled encoder, model.bundled)");
        }
        boolean whiteBox = Methods.traits(experiment.method()).whiteBox();
        if (whiteBox && model.backend() != ExperimentConfig.Backend.PYTORCH) {
            throw new ConfigError(ROOT + ".model.backend", experiment.method() + " trains its prompt by "
                    + "backpropagation and needs model.backend = \"pytorch\" (the white-box backend), got "
                    + valueName(model.backend()));
        }
        if (model.precision() == ExperimentConfig.Precision.INT8
                && (model.backend() != ExperimentConfig.Backend.ONNX || model.cudaDevice().isPresent())) {
            throw new ConfigError(ROOT + ".model.precision", "int8 runs on the onnx backend on the CPU, got "
                    + "model.backend = " + valueName(model.backend()) + ", model.device = \""
                    + r.string("model.device") + "\"");
        }
        if (model.cudaDevice().isPresent() && model.backend() != ExperimentConfig.Backend.ONNX) {
            throw new ConfigError(ROOT + ".model.device", "only the onnx backend runs on CUDA (the pytorch backend "
                    + "and the synthetic model compute on the CPU), got model.backend = " + valueName(model.backend()));
        }
        if (model.onnx().isEmpty() && ExperimentConfig.MASKED_LM_MODELS.contains(model.bundled())
                && model.head() != ExperimentConfig.Head.MASKED_LM) {
            throw new ConfigError(ROOT + ".model.head", model.bundled() + " is a masked language model, read at [MASK] "
                    + "through the task's label words: it takes model.head = \"masked-lm\" (or \"default\"), got "
                    + valueName(model.head()));
        }
        var pool = new ExperimentConfig.Pool(
                r.intIn("pool.workers", 1, 1024),
                r.intIn("pool.max-batch-rows", 1, 1_000_000),
                r.intIn("pool.max-batch-tokens", 1, Integer.MAX_VALUE),
                r.duration("pool.max-wait"),
                r.intIn("pool.queue-limit", 1, Integer.MAX_VALUE));
        var persistence = new ExperimentConfig.Persistence(r.intIn("persistence.snapshot-every", 1, 1_000_000),
                r.nonNegativeDuration("persistence.checkpoint-every"));
        var faults = new ExperimentConfig.Faults(
                r.doubleIn("faults.client-drop-rate", 0.0, 1.0),
                r.doubleIn("faults.client-crash-rate", 0.0, 1.0),
                r.doubleIn("faults.client-delay-rate", 0.0, 1.0),
                r.nonNegativeDuration("faults.client-delay-mean"),
                r.doubleIn("faults.worker-crash-rate", 0.0, 0.9),
                r.doubleIn("faults.score-corruption-rate", 0.0, 1.0));
        problems.throwIfAny();
        // The stored configuration names the format read, so that a stored run reads its files the same way
        // whatever the default later becomes.
        Config stored = c.withValue("data.format", ConfigValueFactory.fromAnyRef(data.format()));
        String hocon = ConfigFactory.empty().withValue(ROOT, stored.root()).root()
                .render(ConfigRenderOptions.concise().setFormatted(true).setJson(false));
        return new ExperimentConfig(experiment, data, federation, model, pool, persistence, faults, hocon);
    }

    /** {@code auto}: the columns the task file names, when it names them; else label<TAB>text. */
    private static String format(String format, TaskDefinition task) {
        if (!format.equals("auto")) return format;
        return task.columns() != null ? "columns" : "tsv";
    }

    private static final String TEXT = "a text";
    private static final String TEXTS = "a list of texts";
    private static final String WHOLE_NUMBER = "a whole number";
    private static final String NUMBER = "a number";
    private static final String BOOLEAN = "true or false";
    private static final String DURATION = "a duration such as \"30 s\"";

    /** An option as configuration files spell it: {@code LIGHT_COPY} is {@code light-copy}. */
    public static String valueName(Enum<?> option) {
        return option.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Typed, range-checked reads whose errors name the file, line and full key. A value of the wrong type is
     * recorded in {@code problems} and read as its default, so that the reads go on and every such error of a
     * configuration is reported at once.
     */
    private record Reader(Config c, Config defaults, ConfigProblems problems) {
        private <T> T get(String key, Function<String, T> getter, String expected) {
            try {
                return getter.apply(key);
            } catch (ConfigException.WrongType | ConfigException.BadValue e) {
                wrongType(key, expected);
                return readDefault(key, expected);
            }
        }

        private void wrongType(String key, String expected) {
            invalid(key, "expected " + expected + ", got " + c.getValue(key).render());
        }

        @SuppressWarnings("unchecked")
        private <T> T readDefault(String key, String expected) {
            Object value = switch (expected) {
                case WHOLE_NUMBER -> defaults.getLong(key);
                case NUMBER -> defaults.getDouble(key);
                case BOOLEAN -> defaults.getBoolean(key);
                case DURATION -> defaults.getDuration(key);
                case TEXTS -> defaults.getStringList(key);
                default -> defaults.getString(key);
            };
            return (T) value;
        }

        /** Records {@code message} for {@code key}; the caller reads the key's default instead, so reading goes on. */
        private void invalid(String key, String message) {
            problems.add(c.getValue(key), ROOT + "." + key, message);
        }

        String string(String key) {
            return get(key, c::getString, TEXT);
        }

        List<String> strings(String key) {
            return get(key, c::getStringList, TEXTS);
        }

        String nonEmpty(String key) {
            String value = string(key);
            if (value.isBlank()) {
                invalid(key, "must not be empty");
                return defaults.getString(key);
            }
            return value;
        }

        long longValue(String key) {
            return get(key, c::getLong, WHOLE_NUMBER);
        }

        boolean bool(String key) {
            return get(key, c::getBoolean, BOOLEAN);
        }

        int intIn(String key, int min, int max) {
            Number read = get(key, c::getNumber, WHOLE_NUMBER);
            double whole = read.doubleValue();
            if (whole != Math.rint(whole) || Math.abs(whole) > Integer.MAX_VALUE) {
                wrongType(key, WHOLE_NUMBER);
                read = defaults.getInt(key);
            }
            int value = read.intValue();
            if (value < min || value > max) {
                invalid(key, "expected an integer in [" + min + ", " + max + "], got " + value);
                return defaults.getInt(key);
            }
            return value;
        }

        double doubleIn(String key, double min, double max) {
            double value = get(key, c::getDouble, NUMBER);
            if (!(value >= min && value <= max)) {
                invalid(key, "expected a number in [" + min + ", " + max + "], got " + value);
                return defaults.getDouble(key);
            }
            return value;
        }

        Duration duration(String key) {
            return get(key, c::getDuration, DURATION);
        }

        Duration nonNegativeDuration(String key) {
            Duration value = duration(key);
            if (value.isNegative()) {
                invalid(key, "expected a duration >= 0 such as \"2 s\", got " + value);
                return defaults.getDuration(key);
            }
            return value;
        }

        Duration positiveDuration(String key) {
            Duration value = duration(key);
            if (value.isZero() || value.isNegative()) {
                invalid(key, "expected a positive duration such as \"30 s\", got " + value);
                return defaults.getDuration(key);
            }
            return value;
        }

        String oneOf(String key, String... allowed) {
            String value = string(key);
            for (String option : allowed) {
                if (option.equals(value)) {
                    return value;
                }
            }
            invalid(key, "expected one of " + String.join(", ", allowed) + ", got '" + value + "'");
            return defaults.getString(key);
        }

        OptionalInt device(String key) {
            try {
                return ExperimentConfig.Model.device(string(key));
            } catch (IllegalArgumentException e) {
                throw new ConfigError(ROOT + "." + key, e.getMessage());
            }
        }

        <E extends Enum<E>> E enumValue(String key, Class<E> type) {
            try {
                return new HoconSettings(c).choice(key, type);
            } catch (SettingException e) {
                throw ConfigError.of(e);
            }
        }
    }
}
