package dev.fedbpt.report;

import java.util.SortedMap;
import java.util.TreeMap;

/** A per-round quantity plotted for every series. */
public enum Quantity {
    ACCURACY("accuracy", "Test accuracy", "test accuracy"),
    LOSS("loss", "Mean client loss", "mean client loss"),
    SIGMA("sigma", "Sigma (CMA-ES step size)", "sigma"),
    BYTES("bytes", "Cumulative communication (up + down)", "cumulative MB (up + down)");

    private final String fileName;
    private final String title;
    private final String axisLabel;

    Quantity(String fileName, String title, String axisLabel) {
        this.fileName = fileName;
        this.title = title;
        this.axisLabel = axisLabel;
    }

    public String fileName() {
        return fileName;
    }

    public String title() {
        return title;
    }

    public String axisLabel() {
        return axisLabel;
    }

    /** This quantity per round of one run; rounds without a finite value are left out. Bytes are in MB (10^6). */
    public SortedMap<Integer, Double> of(RunFolder run) {
        SortedMap<Integer, Double> values = new TreeMap<>();
        long cumulative = 0;
        boolean anyBytes = false;
        for (MetricsRow row : run.rows()) {
            Double value = switch (this) {
                case ACCURACY -> row.testAccuracy();
                case LOSS -> row.meanClientLoss();
                case SIGMA -> row.sigma();
                case BYTES -> {
                    Long bytes = row.bytesTotal();
                    anyBytes |= bytes != null;
                    cumulative += bytes == null ? 0 : bytes;
                    yield anyBytes ? cumulative / 1e6 : null;
                }
            };
            if (value != null && Double.isFinite(value)) {
                values.put(row.round(), value);
            }
        }
        return values;
    }
}
