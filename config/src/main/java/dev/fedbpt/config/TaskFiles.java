package dev.fedbpt.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import dev.fedbpt.engine.data.ColumnLayout;
import dev.fedbpt.engine.data.TaskDefinition;
import dev.fedbpt.engine.data.TaskMetric;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Task files: a task defined in HOCON (its inputs, labels with their words and descriptions, template, metrics and
 * the columns of its data files), shipped with fedbpt or written by a user. {@code data.task} names a shipped task
 * ({@link #SHIPPED}; case, '-' and '_' do not matter, so "SST-2" is sst2) or the path of a task file. The shipped
 * files, under {@code dev/fedbpt/config/tasks/}, are the examples to copy:
 * <pre>
 * task {
 *   name = "rte"
 *   inputs = ["sentence1", "sentence2"]            # one input (a sentence) or two (a pair)
 *   labels = [                                       # in class order; value: as the data files write it
 *     { value = "entailment", name = "entailment", word = "yes", description = "The second sentence follows ..." }
 *     { value = "not_entailment", name = "not entailment", word = "no", description = "..." }
 *   ]
 *   template = "{sentence1} entailment? [MASK]. {sentence2}"   # masked-LM heads; every input once, [MASK] once
 *   metrics = ["accuracy"]                           # accuracy | f1 | mcc, the headline first
 *   positive-label = "1"                             # with f1 only: the label value F1 is computed for
 *   columns { file = "tsv", header = true, label = "label", inputs = ["sentence1", "sentence2"] }   # optional
 * }
 * </pre>
 * {@code columns} (read when {@code data.format = "columns"}): {@code file} is tsv (no quoting, as GLUE), csv
 * (RFC 4180) or jsonl (one JSON object per line, columns are keys); without a header, columns are 0-based indices.
 */
public final class TaskFiles {
    public static final List<String> SHIPPED = List.of("sample-sentiment", "sst2", "ag-news", "yelp-polarity",
            "cola", "mrpc", "rte", "qnli", "mnli", "qqp", "fdu-mtl");
    private static final String RESOURCE_DIR = "dev/fedbpt/config/tasks/";
    private static final Set<String> TASK_KEYS = Set.of("name", "inputs", "labels", "template", "metrics",
            "positive-label", "columns");
    private static final Set<String> LABEL_KEYS = Set.of("value", "name", "word", "description");
    private static final Set<String> COLUMN_KEYS = Set.of("file", "header", "label", "inputs");

    private TaskFiles() {}

    /**
     * The task {@code nameOrPath} names: a shipped task, or a task file (a path ending in .conf, relative to the
     * working directory).
     *
     * @throws ConfigError naming {@code data.task} or the task file's key, and what was expected
     */
    public static TaskDefinition load(String nameOrPath) {
        String shipped = shippedName(nameOrPath);
        if (shipped != null) {
            String resource = RESOURCE_DIR + shipped + ".conf";
            Config file = ConfigFactory.parseResources(TaskFiles.class.getClassLoader(), resource,
                    ConfigParseOptions.defaults().setAllowMissing(false));
            return read(file, "shipped task file " + resource);
        }
        if (!nameOrPath.endsWith(".conf")) {
            throw new ConfigError(ConfigLoader.ROOT + ".data.task", "expected a shipped task (" + String.join(", ",
                    SHIPPED) + ") or the path of a task file ending in .conf, got '" + nameOrPath + "'");
        }
        Path path = Path.of(nameOrPath);
        if (!Files.isRegularFile(path)) {
            throw new ConfigError(ConfigLoader.ROOT + ".data.task", "task file " + path.toAbsolutePath()
                    + " does not exist");
        }
        try {
            Config file = ConfigFactory.parseFile(path.toFile(),
                    ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false));
            return read(file, "task file " + path);
        } catch (ConfigException.Parse e) {
            throw new ConfigError(null, "cannot parse task file " + path + ": " + e.getMessage());
        }
    }

    /** The shipped task {@code name} means, or null. */
    static String shippedName(String name) {
        String key = normalize(name);
        for (String task : SHIPPED) {
            if (normalize(task).equals(key)) {
                return task;
            }
        }
        return null;
    }

    private static String normalize(String s) {
        return s.strip().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    }

    private static TaskDefinition read(Config file, String where) {
        Fields task = Fields.section(file, "task", where);
        task.only(TASK_KEYS);
        String name = task.string("name");
        List<String> inputs = task.strings("inputs");
        List<String> values = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> words = new ArrayList<>();
        List<String> descriptions = new ArrayList<>();
        List<? extends Config> labels = task.configs("labels");
        for (int i = 0; i < labels.size(); i++) {
            Fields label = new Fields(labels.get(i), where, "task.labels[" + i + "]");
            label.only(LABEL_KEYS);
            values.add(label.string("value"));
            names.add(label.string("name"));
            words.add(label.string("word"));
            descriptions.add(label.string("description"));
        }
        List<TaskMetric> metrics = new ArrayList<>();
        for (String metric : task.strings("metrics")) {
            try {
                metrics.add(TaskMetric.byKey(metric));
            } catch (IllegalArgumentException e) {
                throw task.error("metrics", e.getMessage());
            }
        }
        int positive = -1;
        if (task.has("positive-label")) {
            String value = task.string("positive-label");
            positive = values.indexOf(value);
            if (positive < 0) {
                throw task.error("positive-label", "expected one of the label values " + values + ", got '"
                        + value + "'");
            }
        }
        ColumnLayout columns = null;
        if (task.has("columns")) {
            Fields c = Fields.section(file, "task.columns", where);
            c.only(COLUMN_KEYS);
            String kind = c.string("file");
            ColumnLayout.Kind fileKind = null;
            for (ColumnLayout.Kind k : ColumnLayout.Kind.values()) {
                if (k.key().equals(kind)) {
                    fileKind = k;
                }
            }
            if (fileKind == null) {
                throw c.error("file", "expected tsv, csv or jsonl, got '" + kind + "'");
            }
            try {
                columns = new ColumnLayout(fileKind, c.bool("header"), c.string("label"), c.strings("inputs"));
            } catch (IllegalArgumentException e) {
                throw c.error(null, e.getMessage());
            }
        }
        try {
            return new TaskDefinition(name, inputs, values, names, task.string("template"), words, descriptions,
                    metrics, positive, columns);
        } catch (IllegalArgumentException e) {
            throw new ConfigError(null, where + ": " + e.getMessage());
        }
    }

    /** Reads one section of a task file; every error names the file and the key. */
    private static final class Fields {
        private final Config c;
        private final String where;
        private final String prefix;

        Fields(Config c, String where, String prefix) {
            this.c = c;
            this.where = where;
            this.prefix = prefix;
        }

        static Fields section(Config file, String path, String where) {
            if (!file.hasPath(path)) {
                throw new ConfigError(null, where + ": expected a section '" + path + " { ... }'");
            }
            try {
                return new Fields(file.getConfig(path), where, path);
            } catch (ConfigException.WrongType e) {
                throw new ConfigError(null, where + ": " + path + " must be a section { ... }");
            }
        }

        void only(Set<String> keys) {
            for (Map.Entry<String, ConfigValue> entry : c.root().entrySet()) {
                if (!keys.contains(entry.getKey())) {
                    throw error(entry.getKey(), "unknown key; expected " + String.join(", ", keys.stream().sorted()
                            .toList()));
                }
            }
        }

        boolean has(String key) {
            return c.hasPath(key);
        }

        String string(String key) {
            String value = get(key, c::getString);
            if (value.isBlank()) {
                throw error(key, "must not be empty");
            }
            return value;
        }

        boolean bool(String key) {
            return get(key, c::getBoolean);
        }

        List<String> strings(String key) {
            return get(key, c::getStringList);
        }

        List<? extends Config> configs(String key) {
            return get(key, c::getConfigList);
        }

        private <T> T get(String key, Function<String, T> getter) {
            try {
                return getter.apply(key);
            } catch (ConfigException.Missing e) {
                throw error(key, "missing");
            } catch (ConfigException.WrongType | ConfigException.BadValue e) {
                throw error(key, e.getMessage().replaceFirst("^.*?: ", ""));
            }
        }

        ConfigError error(String key, String message) {
            String at = key == null ? prefix : prefix + "." + key;
            return new ConfigError(null, where + ": " + at + ": " + message);
        }
    }
}
