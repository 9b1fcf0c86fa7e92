package dev.fedbpt.report;

import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.method.MethodTraits;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.method.SettingsRules;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Groups runs into {@link Series}. A configuration key is a varying hyper-parameter when runs of the same task, split
 * and method disagree on it; the seed, the experiment's name and settings that do not change results (execution
 * settings, persistence, deadlines, data folder) never count. A key that varies exactly as a leading key does (an
 * item of a profile, among runs that differ by profile) still splits the series but is not named in labels or
 * tables: the leading key names the same runs. A method without a profile (the registry's
 * {@link SettingsRules#leadingKeysReaders}: FedBPT's searching methods have one) does not read the profile, nor the
 * items it set: they neither split its runs nor name them, and its tables' profile cells are n/a.
 *
 * @param series      sorted by task, split, method (baselines first) and parameter values
 * @param varyingKeys sorted configuration keys (without the {@code fedbpt.} root), less those a leading key names
 */
public record Grouping(List<Series> series, List<String> varyingKeys) {
    private static final List<String> IGNORED_KEYS = List.of("experiment.name", "experiment.seed", "data.dir",
            "federation.round-deadline");
    private static final List<String> IGNORED_PREFIXES = List.of("persistence.");
    /** Stands for "not read" where a value is compared; no configuration value is a NUL. */
    private static final String UNREAD = "\0";
    // data.task varies within a task only where two task files give one name; "task" heads the name's own column.
    private static final Map<String, String> SHORT_NAMES = Map.of("search.perturbation-rate", "r_p",
            "data.task", "task file");

    public Grouping {
        series = List.copyOf(series);
        varyingKeys = List.copyOf(varyingKeys);
    }

    public static Grouping of(List<RunRecord> runs) {
        Map<List<String>, List<RunRecord>> byMethod = new LinkedHashMap<>();
        for (RunRecord run : runs) {
            byMethod.computeIfAbsent(methodKey(run), k -> new ArrayList<>()).add(run);
        }
        Set<String> recorded = recordedProfiles(runs);
        Map<List<String>, Set<String>> unreadByMethod = new HashMap<>();
        byMethod.forEach((key, group) -> unreadByMethod.put(key, unread(group, key.get(2), recorded)));
        Readings readings = new Readings(unreadByMethod);

        Map<List<String>, Set<String>> varyingByMethod = new HashMap<>();
        Set<String> varying = new TreeSet<>();
        byMethod.forEach((key, group) -> {
            Set<String> keys = varyingAmong(group, readings);
            varyingByMethod.put(key, withoutFollowers(keys, group, readings));
            varying.addAll(keys);
        });

        Map<List<String>, List<RunRecord>> bySeries = new LinkedHashMap<>();
        for (RunRecord run : runs) {
            List<String> key = new ArrayList<>(methodKey(run));
            for (String parameter : varying) {
                key.add(readings.value(run, parameter)); // null where the method does not read it
            }
            bySeries.computeIfAbsent(key, k -> new ArrayList<>()).add(run);
        }
        List<Series> series = new ArrayList<>();
        bySeries.forEach((key, group) -> {
            RunRecord first = group.get(0);
            SortedMap<String, String> parameters = new TreeMap<>();
            for (String parameter : varying) {
                String value = readings.value(first, parameter);
                if (value != null) {
                    parameters.put(parameter, value);
                }
            }
            List<String> labelKeys = List.copyOf(varyingByMethod.get(methodKey(first)));
            List<RunRecord> sorted = new ArrayList<>(group);
            sorted.sort(Comparator.comparing(RunRecord::seed, Grouping::compareValues));
            series.add(new Series(first.task(), first.split(), first.method(), parameters, labelKeys, sorted));
        });
        // Over every run the stored values: a method without a profile still stores the items the profile set.
        List<String> named = List.copyOf(withoutFollowers(varying, runs, Readings.STORED));
        series.sort(seriesOrder(named));
        return new Grouping(series, named);
    }

    private static List<String> methodKey(RunRecord run) {
        return List.of(run.task(), run.split(), run.method());
    }

    /** The methods some run of which records in its result.json the profile it ran with. */
    private static Set<String> recordedProfiles(List<RunRecord> runs) {
        Set<String> methods = new TreeSet<>();
        runs.stream().filter(run -> run.profile() != null).forEach(run -> methods.add(run.method()));
        return methods;
    }

    /**
     * Whether {@code method} reads the leading keys (a profile) of {@code rules}: as the registry says, or, for a
     * method this fedbpt no longer knows, whether its result.json recorded a profile. Every run folder's configuration
     * holds {@code search.profile} whatever its method, so the configuration cannot tell.
     */
    private static boolean readsLeadingKeys(SettingsRules rules, String method, Set<String> recorded) {
        return Methods.isKnown(method) ? rules.leadingKeysReaders().contains(method) : recorded.contains(method);
    }

    /**
     * The keys one method's runs ({@code group}) do not read: the leading keys (a profile) of a method without them,
     * and the keys that vary exactly as such a key does among these runs (the items it set, stored resolved).
     */
    private static Set<String> unread(List<RunRecord> group, String method, Set<String> recorded) {
        Set<String> unread = new TreeSet<>();
        Set<String> varying = varyingAmong(group, Readings.STORED);
        for (SettingsRules rules : Methods.settingsRules()) {
            if (readsLeadingKeys(rules, method, recorded)) {
                continue;
            }
            for (String leader : rules.leadingKeys()) {
                unread.add(leader);
                if (varying.contains(leader)) {
                    varying.stream().filter(key -> splitAlike(leader, key, group, Readings.STORED))
                            .forEach(unread::add);
                }
            }
        }
        return unread;
    }

    /** A run's settings as its method reads them: a key the method does not read has no value (null). */
    private record Readings(Map<List<String>, Set<String>> unreadByMethod) {
        /** The values as stored, every key read. */
        static final Readings STORED = new Readings(Map.of());

        String value(RunRecord run, String key) {
            Set<String> unread = unreadByMethod.get(methodKey(run));
            return unread != null && unread.contains(key) ? null : run.settings().getOrDefault(key, "");
        }
    }

    /** The series of one task and split, in order. */
    public Map<List<String>, List<Series>> byTaskAndSplit() {
        Map<List<String>, List<Series>> groups = new LinkedHashMap<>();
        for (Series s : series) {
            groups.computeIfAbsent(List.of(s.task(), s.split()), k -> new ArrayList<>()).add(s);
        }
        return groups;
    }

    /** How labels and tables name a key: {@code r_p} for the perturbation rate, else the key's last part. */
    public static String shortName(String key) {
        String alias = SHORT_NAMES.get(key);
        if (alias != null) {
            return alias;
        }
        int dot = key.lastIndexOf('.');
        return dot < 0 ? key : key.substring(dot + 1);
    }

    /** Numbers compare by value, other text alphabetically; null (missing) first. */
    public static int compareValues(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        Double x = number(a);
        Double y = number(b);
        if (x != null && y != null) {
            int byValue = Double.compare(x, y);
            return byValue != 0 ? byValue : a.compareTo(b);
        }
        if (x != null || y != null) {
            return x != null ? -1 : 1;
        }
        return a.compareTo(b);
    }

    /** The value of {@code text} as a number, or null when it is not one. */
    static Double number(String text) {
        try {
            return Double.valueOf(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The keys (less those never counted) with more than one value among {@code runs}; {@code runs} are one method's
     * or {@link Readings#STORED} reads them, so a key is unread by all of them or by none.
     */
    private static Set<String> varyingAmong(List<RunRecord> runs, Readings readings) {
        Set<String> keys = new TreeSet<>();
        for (RunRecord run : runs) {
            keys.addAll(run.settings().keySet());
        }
        keys.removeIf(Grouping::ignored);
        Set<String> varying = new TreeSet<>();
        for (String key : keys) {
            Set<String> values = new HashSet<>();
            for (RunRecord run : runs) {
                values.add(readings.value(run, key));
            }
            if (values.size() > 1) {
                varying.add(key);
            }
        }
        return varying;
    }

    /** {@code keys} less those that vary exactly as a leading key among them does over {@code runs}. */
    private static Set<String> withoutFollowers(Set<String> keys, List<RunRecord> runs, Readings readings) {
        Set<String> named = new TreeSet<>(keys);
        for (SettingsRules rules : Methods.settingsRules()) {
            for (String leader : rules.leadingKeys()) {
                if (keys.contains(leader)) {
                    named.removeIf(key -> !key.equals(leader) && splitAlike(leader, key, runs, readings));
                }
            }
        }
        return named;
    }

    /** Whether each value of {@code a} goes with exactly one value of {@code b} over the runs, and the other way. */
    private static boolean splitAlike(String a, String b, List<RunRecord> runs, Readings readings) {
        Map<String, String> bOfA = new HashMap<>();
        Map<String, String> aOfB = new HashMap<>();
        for (RunRecord run : runs) {
            String valueA = Objects.toString(readings.value(run, a), UNREAD);
            String valueB = Objects.toString(readings.value(run, b), UNREAD);
            if (!valueB.equals(bOfA.computeIfAbsent(valueA, v -> valueB))
                    || !valueA.equals(aOfB.computeIfAbsent(valueB, v -> valueA))) {
                return false;
            }
        }
        return true;
    }

    private static boolean ignored(String key) {
        return IGNORED_KEYS.contains(key) || IGNORED_PREFIXES.stream().anyMatch(key::startsWith)
                || ExperimentConfig.isExecutionKey(key);
    }

    private static Comparator<Series> seriesOrder(List<String> varying) {
        Comparator<Series> order = Comparator.comparing(Series::task).thenComparing(Series::split)
                .thenComparing(Series::method, Comparator.comparingInt(Grouping::methodRank)
                        .thenComparing(Comparator.naturalOrder()));
        for (String key : varying) {
            order = order.thenComparing(s -> s.parameters().get(key), Grouping::compareValues);
        }
        return order;
    }

    /**
     * Baselines first: the prompt-free one, then in-context learning, then the centralised references, then the
     * federated methods, then methods this fedbpt no longer knows; by name within each.
     */
    static int methodRank(String method) {
        if (!Methods.isKnown(method)) {
            return 4;
        }
        MethodTraits traits = Methods.traits(method);
        if (!traits.runsRounds()) {
            return traits.demonstrations() ? 1 : 0;
        }
        return traits.singleClient() ? 2 : 3;
    }

    /** Whether {@code method} scores the task without any prompt or demonstrations (the zero-shot baseline). */
    static boolean promptFree(String method) {
        return methodRank(method) == 0;
    }
}
