package dev.fedbpt.cli.sweep;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One experiment of a sweep: its name (the axis labels joined by '-'), its run folder, the label it took on each
 * axis, and its overrides in the order they apply (later ones win).
 */
public record SweepCell(String name, Path folder, Map<String, String> labels, List<Setting> settings) {
    /** The overrides as {@code KEY=VALUE} strings for {@link dev.fedbpt.config.ConfigLoader#load}. */
    public List<String> overrides() {
        return settings.stream().map(Setting::text).toList();
    }
}
