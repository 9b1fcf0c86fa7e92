package dev.fedbpt.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A per-round quantity plotted for every series: the framework's (accuracy, loss, bytes) and each metric a method
 * reports (e.g. a step size), named as the method names it.
 *
 * @param metric the method metric's name, or null for the framework's quantities
 */
public record Quantity(String fileName, String title, String axisLabel, String metric) {
    public static final Quantity ACCURACY = new Quantity("accuracy", "Test accuracy", "test accuracy", null);
    public static final Quantity LOSS = new Quantity("loss", "Mean client loss", "mean client loss", null);
    public static final Quantity BYTES = new Quantity("bytes", "Cumulative communication, encoded messages (up + down)",
            "cumulative MB (up + down)", null);

    /** A method's metric, plotted under its own name. */
    public static Quantity metric(String name) {
        return new Quantity(name, "Method metric: " + name, name, name);
    }

    /** The framework's quantities, then every metric some run reports, in the order they first appear. */
    public static List<Quantity> of(List<RunRecord> runs) {
        List<Quantity> all = new ArrayList<>(List.of(ACCURACY, LOSS));
        Set<String> metrics = new LinkedHashSet<>();
        for (RunRecord run : runs) {
            for (MetricsRow row : run.rows()) {
                metrics.addAll(row.metrics().keySet());
            }
        }
        metrics.forEach(name -> all.add(metric(name)));
        all.add(BYTES);
        return all;
    }

    /** This quantity per round of one run; rounds without a finite value are left out. Bytes are in MB (10^6). */
    public SortedMap<Integer, Double> of(RunRecord run) {
        SortedMap<Integer, Double> values = new TreeMap<>();
        long cumulative = 0;
        boolean anyBytes = false;
        for (MetricsRow row : run.rows()) {
            Double value;
            if (metric != null) {
                value = row.metrics().get(metric);
            } else if (this.equals(ACCURACY)) {
                value = row.testAccuracy();
            } else if (this.equals(LOSS)) {
                value = row.meanClientLoss();
            } else {
                Long bytes = row.bytesTotal();
                anyBytes |= bytes != null;
                cumulative += bytes == null ? 0 : bytes;
                value = anyBytes ? cumulative / 1e6 : null;
            }
            if (value != null && Double.isFinite(value)) {
                values.put(row.round(), value);
            }
        }
        return values;
    }
}
