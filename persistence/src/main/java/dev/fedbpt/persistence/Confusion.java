package dev.fedbpt.persistence;

import java.util.ArrayList;
import java.util.List;

/**
 * How an evaluation's rows were classified: {@code counts.get(t).get(p)} rows of true class t predicted as class p.
 * What accuracy hides: whether a prompt scores by predicting every row as one class (a collapsed prompt scores the
 * share of that class), and each class's recall. Empty when not recorded (journals written before it was kept).
 */
public record Confusion(List<List<Integer>> counts) implements CborSerializable {
    public static final Confusion EMPTY = new Confusion(List.of());

    public Confusion {
        counts = counts == null ? List.of() : counts.stream().map(List::copyOf).toList();
    }

    public static Confusion of(long[][] counts) {
        List<List<Integer>> rows = new ArrayList<>(counts.length);
        for (long[] row : counts) {
            List<Integer> cells = new ArrayList<>(row.length);
            for (long count : row) {
                cells.add(Math.toIntExact(count));
            }
            rows.add(cells);
        }
        return new Confusion(rows);
    }

    static Confusion orEmpty(Confusion confusion) {
        return confusion == null ? EMPTY : confusion;
    }

    /** Whether the evaluation recorded its matrix (named so that Jackson does not take it for a property). */
    public boolean recorded() {
        return !counts.isEmpty();
    }

    /**
     * The one class every row was predicted as, or -1 when rows were predicted as two classes or more (or nothing
     * was recorded).
     */
    public int onlyPredictedClass() {
        int only = -1;
        for (int predicted = 0; predicted < counts.size(); predicted++) {
            int rows = 0;
            for (List<Integer> trueRow : counts) {
                rows += trueRow.get(predicted);
            }
            if (rows > 0) {
                if (only >= 0) {
                    return -1;
                }
                only = predicted;
            }
        }
        return only;
    }

    /** Each class's recall (rows of the class predicted as it, over its rows; NaN for a class with no rows). */
    public List<Double> recall() {
        List<Double> recall = new ArrayList<>(counts.size());
        for (int c = 0; c < counts.size(); c++) {
            int rows = counts.get(c).stream().mapToInt(Integer::intValue).sum();
            recall.add(rows == 0 ? Double.NaN : counts.get(c).get(c) / (double) rows);
        }
        return recall;
    }
}
