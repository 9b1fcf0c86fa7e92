package dev.fedbpt.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Expected values worked by hand from the definitions GLUE uses (scikit-learn's f1_score and matthews_corrcoef). */
class TaskMetricTest {
    // y_true = [0,0,0,0,1,1,1,1,1,1], y_pred = [0,0,1,1,1,1,1,1,0,1]: tn 2, fp 2, fn 1, tp 5
    private static final long[][] BINARY = {{2, 2}, {1, 5}};

    @Test
    void binaryMetrics() {
        assertEquals(0.7, TaskMetric.ACCURACY.of(BINARY, -1), 1e-12);
        assertEquals(2.0 * 5 / (2 * 5 + 2 + 1), TaskMetric.F1.of(BINARY, 1), 1e-12); // 0.769230...
        // (tp tn - fp fn) / sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn)) = (10 - 2) / sqrt(7 * 6 * 4 * 3)
        assertEquals(8 / Math.sqrt(7 * 6 * 4 * 3), TaskMetric.MCC.of(BINARY, -1), 1e-12); // 0.356348...
        assertEquals(2.0 * 2 / (2 * 2 + 1 + 2), TaskMetric.F1.of(BINARY, 0), 1e-12);
    }

    @Test
    void degenerateCases() {
        long[][] allPositive = {{0, 4}, {0, 6}};
        assertEquals(0.0, TaskMetric.MCC.of(allPositive, -1), "one predicted class: MCC 0, as scikit-learn");
        long[][] neverPositive = {{4, 0}, {6, 0}};
        assertEquals(0.0, TaskMetric.F1.of(neverPositive, 1));
        assertEquals(Double.NaN, TaskMetric.ACCURACY.of(new long[2][2], -1));
    }

    @Test
    void multiClassMccIsGorodkinsAsScikitLearns() {
        // y_true = [0,0,0,0,1,1,1,1,2,2], y_pred = [0,0,0,1,0,1,1,2,1,2]: correct 6 of 10, row and column sums
        // (4, 4, 2) both, so MCC = (6 * 10 - 36) / sqrt((100 - 36) (100 - 36)) = 24 / 64
        long[][] confusion = {{3, 1, 0}, {1, 2, 1}, {0, 1, 1}};
        assertEquals(0.375, TaskMetric.MCC.of(confusion, -1), 1e-12);
        long[][] perfect = {{2, 0, 0}, {0, 3, 0}, {0, 0, 1}};
        assertEquals(1.0, TaskMetric.MCC.of(perfect, -1), 1e-12);
    }
}
