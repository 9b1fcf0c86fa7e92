package dev.fedbpt.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One varying key (such as r_p) with its runs side by side: a row per combination of task, split, method and the
 * other varying keys that was run with more than one value of the key.
 *
 * @param key       the varying configuration key
 * @param otherKeys the other varying keys, which name a row together with task, split and method
 * @param values    every value of the key that some row has, in order (numbers by value)
 */
public record Ablation(String key, List<String> otherKeys, List<String> values, List<Row> rows) {

    /** @param coordinates task, split, method, then the values of {@link #otherKeys()} */
    public record Row(List<String> coordinates, Map<String, Series> byValue) {
        public Row {
            coordinates = List.copyOf(coordinates);
            byValue = Map.copyOf(byValue);
        }
    }

    public Ablation {
        otherKeys = List.copyOf(otherKeys);
        values = List.copyOf(values);
        rows = List.copyOf(rows);
    }

    /** The ablations of every varying key that has a row; keys run with one value per row have none. */
    public static List<Ablation> of(Grouping grouping) {
        List<Ablation> ablations = new ArrayList<>();
        for (String key : grouping.varyingKeys()) {
            List<String> others = grouping.varyingKeys().stream().filter(k -> !k.equals(key)).toList();
            Map<List<String>, Map<String, Series>> rows = new LinkedHashMap<>();
            for (Series series : grouping.series()) {
                if (!series.parameters().containsKey(key)) {
                    continue; // its method does not read the key (a profile, for a method without one)
                }
                List<String> coordinates = new ArrayList<>(List.of(series.task(), series.split(), series.method()));
                others.forEach(other -> coordinates.add(series.parameters().getOrDefault(other, "n/a")));
                rows.computeIfAbsent(coordinates, k -> new LinkedHashMap<>()).put(series.parameters().get(key), series);
            }
            rows.values().removeIf(byValue -> byValue.size() < 2);
            if (rows.isEmpty()) {
                continue;
            }
            TreeSet<String> values = new TreeSet<>(Grouping::compareValues);
            rows.values().forEach(byValue -> values.addAll(byValue.keySet()));
            List<Row> list = new ArrayList<>();
            rows.forEach((coordinates, byValue) -> list.add(new Row(coordinates, byValue)));
            ablations.add(new Ablation(key, others, List.copyOf(values), list));
        }
        return ablations;
    }

    /**
     * The other keys that tell the row's runs from the rest of its method's, with the row's values, in key order: the
     * other keys its method's runs vary in ({@link Series#labelKeys}). Plot titles and file names name a row by these;
     * the others have one value for every run of the method, and would only make the name long.
     */
    public Map<String, String> named(Row row) {
        Series any = row.byValue().values().iterator().next();
        Map<String, String> named = new LinkedHashMap<>();
        for (int i = 0; i < otherKeys.size(); i++) {
            if (any.labelKeys().contains(otherKeys.get(i))) {
                named.put(otherKeys.get(i), row.coordinates().get(3 + i));
            }
        }
        return named;
    }

    /** How tables and plots name the key: r_p, or the key's last part. */
    public String name() {
        return Grouping.shortName(key);
    }
}
