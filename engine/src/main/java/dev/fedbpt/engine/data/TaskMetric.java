package dev.fedbpt.engine.data;

import java.util.Locale;

/**
 * How a task's predictions are scored, from the confusion matrix {@code confusion[true][predicted]}. GLUE's choices:
 * accuracy for most tasks, F1 of the positive class beside accuracy for MRPC and QQP, Matthews correlation for CoLA.
 */
public enum TaskMetric {
    ACCURACY,
    /** F1 of the task's positive label (precision and recall of predicting it); 0 when it is never predicted. */
    F1,
    /**
     * Matthews correlation coefficient in Gorodkin's K-class form (scikit-learn's {@code matthews_corrcoef}, which
     * GLUE uses): the binary MCC for two classes; 0 when every prediction or every label is one class.
     */
    MCC;

    /** As configuration files and result keys spell it: {@code accuracy}, {@code f1}, {@code mcc}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TaskMetric byKey(String key) {
        for (TaskMetric metric : values()) {
            if (metric.key().equals(key)) {
                return metric;
            }
        }
        throw new IllegalArgumentException("unknown metric '" + key + "'; expected accuracy, f1 or mcc");
    }

    /**
     * This metric of {@code confusion} (rows: true class, columns: predicted class).
     *
     * @param positive the positive class for {@link #F1}; ignored by the others
     */
    public double of(long[][] confusion, int positive) {
        int k = confusion.length;
        long total = 0;
        long correct = 0;
        long[] actual = new long[k];
        long[] predicted = new long[k];
        for (int t = 0; t < k; t++) {
            for (int p = 0; p < k; p++) {
                long n = confusion[t][p];
                total += n;
                actual[t] += n;
                predicted[p] += n;
                if (t == p) {
                    correct += n;
                }
            }
        }
        if (total == 0) {
            return Double.NaN;
        }
        return switch (this) {
            case ACCURACY -> (double) correct / total;
            case F1 -> {
                long tp = confusion[positive][positive];
                long denominator = actual[positive] + predicted[positive];
                yield denominator == 0 ? 0.0 : 2.0 * tp / denominator;
            }
            case MCC -> {
                double covariance = (double) correct * total;
                double sumPredicted = 0;
                double sumActual = 0;
                for (int c = 0; c < k; c++) {
                    covariance -= (double) predicted[c] * actual[c];
                    sumPredicted += (double) predicted[c] * predicted[c];
                    sumActual += (double) actual[c] * actual[c];
                }
                double denominator = Math.sqrt(((double) total * total - sumPredicted)
                        * ((double) total * total - sumActual));
                yield denominator == 0 ? 0.0 : covariance / denominator;
            }
        };
    }

    /** The predicted class: index of the largest score; NaN scores never win, ties go to the lower class index. */
    public static int predicted(float[] scores) {
        int best = 0;
        for (int i = 1; i < scores.length; i++) {
            if (scores[i] > scores[best] || Float.isNaN(scores[best])) {
                best = i;
            }
        }
        return best;
    }
}
