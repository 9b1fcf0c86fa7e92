package dev.fedbpt.cli.sweep;

import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigValueFactory;
import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A sweep expanded into cells, each with its validated experiment configuration. */
public record SweepPlan(SweepFile sweep, Path out, List<Cell> cells) {
    private static final String ROOT_PREFIX = "fedbpt.";

    /** A cell and the configuration it runs. */
    public record Cell(SweepCell spec, ExperimentConfig config) {
        public String name() {
            return spec.name();
        }

        public Path folder() {
            return spec.folder();
        }

        public CellStatus status() {
            return CellStatus.of(spec.folder(), config);
        }
    }

    /**
     * Expands the sweep and loads every cell's configuration, so that a bad key or value anywhere is reported,
     * naming the sweep file and the axis value (or set) it came from, before any cell runs.
     *
     * @param extraOverrides {@code KEY=VALUE} overrides applied last to every cell (the command line's --set)
     */
    public static SweepPlan validate(SweepFile sweep, Path out, List<String> extraOverrides) {
        List<Cell> cells = new ArrayList<>();
        for (SweepCell cell : expand(sweep, out, extraOverrides)) {
            try {
                cells.add(new Cell(cell, ConfigLoader.load(sweep.base(), cell.overrides())));
            } catch (ConfigError e) {
                throw attribute(sweep, cell, e);
            }
        }
        return new SweepPlan(sweep, out, List.copyOf(cells));
    }

    /**
     * The cells of a sweep, grid after grid, each grid's product with its first axis outermost. A cell's overrides
     * apply in this order: the sweep's set, its grid's set, its axis values in axis order, experiment.name = the
     * cell name, then the extra overrides.
     */
    public static List<SweepCell> expand(SweepFile sweep, Path out, List<String> extraOverrides) {
        List<Setting> extra = extraOverrides.stream().map(SweepPlan::commandLineSetting).toList();
        List<SweepCell> cells = new ArrayList<>();
        Map<String, Integer> gridOfName = new HashMap<>();
        for (SweepFile.Grid grid : sweep.grids()) {
            List<List<SweepFile.Choice>> combinations = List.of(List.of());
            for (SweepFile.Axis axis : grid.axes()) {
                List<List<SweepFile.Choice>> longer = new ArrayList<>();
                for (List<SweepFile.Choice> combination : combinations) {
                    for (SweepFile.Choice choice : axis.choices()) {
                        List<SweepFile.Choice> next = new ArrayList<>(combination);
                        next.add(choice);
                        longer.add(next);
                    }
                }
                combinations = longer;
            }
            for (List<SweepFile.Choice> combination : combinations) {
                SweepCell cell = cell(sweep, grid, combination, out, extra);
                Integer earlier = gridOfName.putIfAbsent(cell.name(), grid.number());
                if (earlier != null) {
                    throw new ConfigError(null, "sweep file " + sweep.file() + ": cell '" + cell.name() + "' comes "
                            + "twice (grid " + earlier + " and grid " + grid.number() + "); cells share a folder only "
                            + "by name, so give the values distinct labels");
                }
                cells.add(cell);
            }
        }
        return List.copyOf(cells);
    }

    private static SweepCell cell(SweepFile sweep, SweepFile.Grid grid, List<SweepFile.Choice> combination, Path out,
                                  List<Setting> extra) {
        Map<String, String> labels = new LinkedHashMap<>();
        List<Setting> settings = new ArrayList<>(sweep.common());
        settings.addAll(grid.set());
        for (int i = 0; i < combination.size(); i++) {
            labels.put(grid.axes().get(i).name(), combination.get(i).label());
            settings.addAll(combination.get(i).settings());
        }
        String name = String.join("-", labels.values());
        settings.add(new Setting("experiment.name",
                ConfigValueFactory.fromAnyRef(name).render(ConfigRenderOptions.concise()), "the cell name"));
        settings.addAll(extra);
        return new SweepCell(name, out.resolve(name), Collections.unmodifiableMap(labels),
                List.copyOf(settings));
    }

    private static Setting commandLineSetting(String override) {
        int eq = override.indexOf('=');
        if (eq <= 0) {
            throw new ConfigError(null, "--set '" + override + "' is not of the form KEY=VALUE");
        }
        return new Setting(stripRoot(override.substring(0, eq).trim()), override.substring(eq + 1).trim(),
                "--set " + override);
    }

    /** Names the override that caused a configuration error: the last one that set the offending key. */
    private static ConfigError attribute(SweepFile sweep, SweepCell cell, ConfigError error) {
        String source = null;
        if (error.key() != null) {
            String key = stripRoot(error.key());
            for (Setting setting : cell.settings()) {
                if (setting.key().equals(key)) {
                    source = setting.source();
                }
            }
        }
        String where = source == null ? "cell " + cell.name() : source + " (cell " + cell.name() + ")";
        return new ConfigError(null, "sweep file " + sweep.file() + ": " + where + ": " + error.getMessage());
    }

    private static String stripRoot(String key) {
        return key.startsWith(ROOT_PREFIX) ? key.substring(ROOT_PREFIX.length()) : key;
    }

    /** How many of the cells are in each status now. */
    public static Map<CellStatus, Integer> count(List<Cell> of) {
        Map<CellStatus, Integer> counts = new EnumMap<>(CellStatus.class);
        for (CellStatus status : CellStatus.values()) {
            counts.put(status, 0);
        }
        for (Cell cell : of) {
            counts.merge(cell.status(), 1, Integer::sum);
        }
        return counts;
    }

    /** The cells whose name contains any of the substrings (all cells when there are none). */
    public List<Cell> select(List<String> substrings) {
        if (substrings.isEmpty()) {
            return cells;
        }
        return cells.stream().filter(cell -> substrings.stream().anyMatch(cell.name()::contains)).toList();
    }
}
