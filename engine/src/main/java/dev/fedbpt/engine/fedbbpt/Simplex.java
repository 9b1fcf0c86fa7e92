package dev.fedbpt.engine.fedbbpt;

/**
 * BDPL's projection of each row of theta back onto the probability simplex: find v by bisection such that
 * sum_j clamp(theta[j] - v, 0, 1) = 1 (within 1e-3), then theta[j] = clamp(theta[j] - v, 0, 1). Transcribed from
 * run_glue_discrete_LM.py:97-123 (solve_v_total_exact, constrainScoreByWholeExact): a = 0, b = max(row), midpoints
 * until |f(v)| < 1e-3 or the 21st midpoint (the code breaks on {@code itr > 20} after computing the midpoint, so it
 * evaluates 21 midpoints, one more than C.3.2's "up to 20 times"; we follow the code).
 *
 * <p>Two departures, both only where BDPL's own result would leave the simplex (the result is bit-identical to
 * BDPL's whenever BDPL's loop meets its own tolerance): (1) a row whose clamped sum is below 1 at v = 0 cannot be
 * fixed with v in [0, max] (BDPL leaves it short and torch's Categorical renormalises it when sampling,
 * run_glue_discrete_LM.py:559); we bracket v in [min - 1, 0] instead, where f(min - 1) = N - 1 >= 0, so the row ends
 * on the simplex; (2) when 21 midpoints have not met the 1e-3 tolerance (a very wide bracket) we keep bisecting, up
 * to {@link #MAX_ITERATIONS}, until it is met.
 */
public final class Simplex {
    /** |sum - 1| below this ends the bisection (run_glue_discrete_LM.py:112). */
    public static final double TOLERANCE = 1e-3;
    static final int MAX_ITERATIONS = 200;

    private Simplex() {}

    /** Projects every row in place. */
    public static void projectRows(double[][] theta) {
        for (double[] row : theta) {
            project(row);
        }
    }

    /** Projects one row in place; returns the shift v that was subtracted. */
    public static double project(double[] row) {
        double v = shift(row);
        for (int j = 0; j < row.length; j++) {
            row[j] = clamp(row[j] - v);
        }
        return v;
    }

    /** The shift v of BDPL's bisection for this row (with the two departures in the class comment). */
    static double shift(double[] row) {
        if (row.length == 0) {
            throw new IllegalArgumentException("an empty row has no simplex");
        }
        double max = Double.NEGATIVE_INFINITY;
        double min = Double.POSITIVE_INFINITY;
        for (double x : row) {
            if (!Double.isFinite(x)) {
                throw new IllegalArgumentException("cannot project a row with a non-finite entry " + x);
            }
            max = Math.max(max, x);
            min = Math.min(min, x);
        }
        double a = 0;
        double b = max;
        if (excess(row, 0) < 0) { // departure (1): the root lies below 0
            a = min - 1;
            b = 0;
        }
        double v;
        int itr = 0;
        while (true) {
            itr++;
            v = (a + b) / 2;
            double obj = excess(row, v);
            // BDPL also stops at its 21st midpoint; departure (2) goes on while the tolerance is unmet and the
            // bracket can still shrink, so it differs from BDPL only where BDPL's row would miss the tolerance
            if (Math.abs(obj) < TOLERANCE || itr >= MAX_ITERATIONS || !(a < v && v < b)) {
                break;
            }
            if (obj < 0) {
                b = v;
            } else {
                a = v;
            }
        }
        return v;
    }

    /** f(v) = sum_j clamp(row[j] - v, 0, 1) - 1, summed left to right as torch's .sum() of a short row. */
    static double excess(double[] row, double v) {
        double s = 0;
        for (double x : row) {
            s += clamp(x - v);
        }
        return s - 1;
    }

    private static double clamp(double x) {
        return x < 0 ? 0 : (x > 1 ? 1 : x);
    }
}
