package dev.fedbpt.report;

import java.util.Collection;

/** Count, mean, sample standard deviation (n - 1; NaN below two values), minimum and maximum of some values. */
public record Stats(int count, double mean, double std, double min, double max) {

    /** The statistics of the finite values among {@code values}; count 0 (and NaN elsewhere) when there are none. */
    public static Stats of(Collection<Double> values) {
        int n = 0;
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Double value : values) {
            if (value != null && Double.isFinite(value)) {
                n++;
                sum += value;
                min = Math.min(min, value);
                max = Math.max(max, value);
            }
        }
        if (n == 0) {
            return new Stats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double mean = sum / n;
        double squares = 0;
        for (Double value : values) {
            if (value != null && Double.isFinite(value)) {
                squares += (value - mean) * (value - mean);
            }
        }
        double std = n > 1 ? Math.sqrt(squares / (n - 1)) : Double.NaN;
        return new Stats(n, mean, std, min, max);
    }
}
