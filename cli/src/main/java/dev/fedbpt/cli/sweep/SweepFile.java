package dev.fedbpt.cli.sweep;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.fedbpt.config.ConfigError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A sweep file: a grid of experiments, written in HOCON.
 *
 * <pre>
 * sweep {
 *   out = "results/paper"              # cell folders go here; relative to the working directory
 *   base = "../sst2-iid-fedbpt.conf"   # optional experiment file every cell starts from; relative to this file
 *   set { experiment.rounds = 50 }     # optional overrides for every cell
 *   grids = [                          # the cells: the product of each grid's axes, grid after grid
 *     { set { ... }                    # optional overrides for this grid's cells
 *       axes = [
 *         { name = "data", values = [ { label = "sst2", set { data.task = "sst2", ... } }, ... ] }
 *         { name = "split", key = "data.split", values = ["iid", "dirichlet"] }
 *         { name = "seed", key = "experiment.seed", prefix = "seed", values = [1, 2] }
 *       ] }
 *   ]
 * }
 * </pre>
 *
 * A value is a scalar for the axis's {@code key} (labelled {@code prefix + value}) or an object with a {@code label}
 * and a {@code set} of overrides. Keys are relative to {@code fedbpt}. HOCON substitutions work across the file,
 * so a dataset defined once outside {@code sweep} can be used in several grids as {@code ${sst2}}.
 */
public record SweepFile(Path file, Path out, Path base, List<Setting> common, List<Grid> grids) {
    /** A product of axes, numbered from 1 in file order. */
    public record Grid(int number, List<Setting> set, List<Axis> axes) {}

    public record Axis(String name, List<Choice> choices) {}

    /** One value of an axis: the label that goes into cell names, and its overrides. */
    public record Choice(String label, List<Setting> settings) {}

    /** Labels become folder names: letters, digits and {@code . _ + -}, starting with a letter or digit. */
    static final Pattern LABEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]*");
    private static final String ROOT_PREFIX = "fedbpt.";

    public static SweepFile read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigError(null, "sweep file " + file + " does not exist or is not a file");
        }
        Config root;
        try {
            root = ConfigFactory.parseFile(file.toFile(),
                    ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false)).resolve();
        } catch (ConfigException e) {
            throw new ConfigError(null, "cannot parse sweep file " + file + ": " + e.getMessage());
        }
        Parser parser = new Parser(file);
        if (!root.hasPath("sweep")) {
            throw parser.error("sweep", "missing; a sweep file holds a sweep { out = ..., grids = [...] } block");
        }
        ConfigObject sweep = parser.object(root.getValue("sweep"), "sweep");
        parser.allowOnly(sweep, "sweep", "out", "base", "set", "grids");
        Path out = Path.of(parser.string(sweep, "out", "sweep"));
        String base = sweep.containsKey("base") ? parser.string(sweep, "base", "sweep") : null;
        Path basePath = base == null ? null : resolveBeside(file, base);
        if (basePath != null && !Files.isRegularFile(basePath)) {
            throw parser.error("sweep", "base " + basePath + " does not exist or is not a file (a base is relative "
                    + "to the sweep file's folder)");
        }
        List<Setting> common = parser.settings(sweep.get("set"), "sweep.set");
        List<Grid> grids = new ArrayList<>();
        List<? extends ConfigValue> gridValues = parser.nonEmptyList(sweep, "grids", "sweep");
        for (int i = 0; i < gridValues.size(); i++) {
            grids.add(parser.grid(gridValues.get(i), i + 1));
        }
        return new SweepFile(file, out, basePath, common, List.copyOf(grids));
    }

    private static Path resolveBeside(Path file, String relative) {
        Path folder = file.toAbsolutePath().getParent();
        return folder.resolve(relative).normalize();
    }

    /** Reads the parts of a sweep file; every error names the file and where in it. */
    private record Parser(Path file) {
        ConfigError error(String where, String message) {
            return new ConfigError(null, "sweep file " + file + ": " + where + ": " + message);
        }

        Grid grid(ConfigValue value, int number) {
            String where = "grid " + number;
            ConfigObject grid = object(value, where);
            allowOnly(grid, where, "set", "axes");
            List<Setting> set = settings(grid.get("set"), where + " set");
            List<Axis> axes = new ArrayList<>();
            Set<String> names = new HashSet<>();
            List<? extends ConfigValue> axisValues = nonEmptyList(grid, "axes", where);
            for (int i = 0; i < axisValues.size(); i++) {
                Axis axis = axis(axisValues.get(i), where, i + 1);
                if (!names.add(axis.name())) {
                    throw error(where, "two axes are named '" + axis.name() + "'");
                }
                axes.add(axis);
            }
            return new Grid(number, set, List.copyOf(axes));
        }

        private Axis axis(ConfigValue value, String gridWhere, int number) {
            String where = gridWhere + ", axis " + number;
            ConfigObject axis = object(value, where);
            allowOnly(axis, where, "name", "key", "prefix", "values");
            String name = string(axis, "name", where);
            where = gridWhere + ", axis '" + name + "'";
            String key = axis.containsKey("key") ? stripRoot(string(axis, "key", where)) : null;
            String prefix = axis.containsKey("prefix") ? string(axis, "prefix", where) : "";
            List<Choice> choices = new ArrayList<>();
            Set<String> labels = new HashSet<>();
            List<? extends ConfigValue> values = nonEmptyList(axis, "values", where);
            for (int i = 0; i < values.size(); i++) {
                Choice choice = choice(values.get(i), key, prefix, where, i + 1);
                if (!labels.add(choice.label())) {
                    throw error(where, "two values are labelled '" + choice.label() + "'");
                }
                choices.add(choice);
            }
            return new Axis(name, List.copyOf(choices));
        }

        private Choice choice(ConfigValue value, String key, String prefix, String axisWhere, int number) {
            String where = axisWhere + ", value " + number;
            if (value.valueType() == ConfigValueType.OBJECT) {
                ConfigObject object = (ConfigObject) value;
                allowOnly(object, where, "label", "set");
                String label = prefix + string(object, "label", where);
                checkLabel(label, where);
                where = axisWhere + ", value '" + label + "'";
                if (!object.containsKey("set")) {
                    throw error(where, "a labelled value needs a set { KEY = VALUE, ... } of overrides");
                }
                return new Choice(label, settings(object.get("set"), where));
            }
            if (value.valueType() == ConfigValueType.LIST || value.valueType() == ConfigValueType.NULL) {
                throw error(where, "expected a scalar or a { label = ..., set { ... } } object, got "
                        + typeName(value));
            }
            String text = value.valueType() == ConfigValueType.STRING ? (String) value.unwrapped() : render(value);
            String label = prefix + text;
            if (key == null) {
                throw error(where, "'" + text + "' is a plain value but the axis has no key; give the axis a key, "
                        + "or write the value as { label = ..., set { ... } }");
            }
            checkLabel(label, where + " ('" + label + "')");
            return new Choice(label, List.of(new Setting(key, render(value), axisWhere + ", value '" + label + "'")));
        }

        private void checkLabel(String label, String where) {
            if (!LABEL.matcher(label).matches()) {
                throw error(where, "label '" + label + "' cannot be part of a folder name; use letters, digits "
                        + "and . _ + - (give the value a label: { label = ..., set { ... } })");
            }
        }

        /** The leaves of a {@code set { ... }} object as overrides, in key order. */
        List<Setting> settings(ConfigValue value, String where) {
            if (value == null) {
                return List.of();
            }
            ConfigObject set = object(value, where);
            List<Setting> settings = new ArrayList<>();
            for (Map.Entry<String, ConfigValue> entry : set.toConfig().entrySet()) {
                settings.add(new Setting(stripRoot(entry.getKey()), render(entry.getValue()), where));
            }
            settings.sort(Comparator.comparing(Setting::key));
            return List.copyOf(settings);
        }

        ConfigObject object(ConfigValue value, String where) {
            if (value.valueType() != ConfigValueType.OBJECT) {
                throw error(where, "expected an object { ... }, got " + typeName(value));
            }
            return (ConfigObject) value;
        }

        String string(ConfigObject object, String key, String where) {
            ConfigValue value = object.get(key);
            if (value == null) {
                throw error(where, "missing " + key);
            }
            if (value.valueType() == ConfigValueType.OBJECT || value.valueType() == ConfigValueType.LIST
                    || value.valueType() == ConfigValueType.NULL) {
                throw error(where, key + ": expected a string, got " + typeName(value));
            }
            String text = String.valueOf(value.unwrapped());
            if (text.isBlank()) {
                throw error(where, key + " must not be empty");
            }
            return text;
        }

        List<? extends ConfigValue> nonEmptyList(ConfigObject object, String key, String where) {
            ConfigValue value = object.get(key);
            if (value == null) {
                throw error(where, "missing " + key + " = [ ... ]");
            }
            if (value.valueType() != ConfigValueType.LIST) {
                throw error(where, key + ": expected a list [ ... ], got " + typeName(value));
            }
            List<? extends ConfigValue> list = (ConfigList) value;
            if (list.isEmpty()) {
                throw error(where, key + " must not be empty");
            }
            return list;
        }

        void allowOnly(ConfigObject object, String where, String... keys) {
            Set<String> allowed = Set.of(keys);
            for (String key : object.keySet()) {
                if (!allowed.contains(key)) {
                    throw error(where, "unknown field '" + key + "'; expected " + String.join(", ", keys));
                }
            }
        }

        private static String typeName(ConfigValue value) {
            return value.valueType().name().toLowerCase(Locale.ROOT);
        }

        private static String stripRoot(String key) {
            return key.startsWith(ROOT_PREFIX) ? key.substring(ROOT_PREFIX.length()) : key;
        }

        private static String render(ConfigValue value) {
            return value.render(ConfigRenderOptions.concise());
        }
    }
}
