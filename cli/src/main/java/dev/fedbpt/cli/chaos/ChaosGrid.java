package dev.fedbpt.cli.chaos;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The fault settings `fedbpt chaos` runs, in order. */
public final class ChaosGrid {
    private ChaosGrid() {}

    public static List<ChaosSetting> standard() {
        ChaosSetting none = ChaosSetting.NONE;
        return List.of(
                none,
                none.withDrop(0.10),
                none.withDrop(0.25),
                none.withDrop(0.50),
                none.withClientCrash(0.10),
                none.withScoreCorruption(0.01),
                none.withWorkerCrash(0.20),
                none.withKills(2),
                none.withDrop(0.25).withWorkerCrash(0.20).withKills(2),
                none.withDelay(0.30));
    }

    /**
     * The settings of the standard grid with the given names (case-insensitive), in grid order; all of them when
     * {@code names} is empty.
     *
     * @throws IllegalArgumentException naming the unknown names and the valid ones
     */
    public static List<ChaosSetting> select(List<String> names) {
        List<ChaosSetting> all = standard();
        if (names.isEmpty()) {
            return all;
        }
        Map<String, ChaosSetting> byName = all.stream().collect(Collectors.toMap(
                setting -> setting.name().toLowerCase(Locale.ROOT), Function.identity()));
        List<String> unknown = names.stream().filter(name -> !byName.containsKey(name.toLowerCase(Locale.ROOT)))
                .toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown chaos setting(s) '" + String.join("', '", unknown)
                    + "'; the settings are: " + all.stream().map(s -> "'" + s.name() + "'")
                    .collect(Collectors.joining(", ")));
        }
        List<String> wanted = names.stream().map(name -> name.toLowerCase(Locale.ROOT)).toList();
        return all.stream().filter(setting -> wanted.contains(setting.name().toLowerCase(Locale.ROOT))).toList();
    }
}
