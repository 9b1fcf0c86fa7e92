package dev.fedbpt.engine.cmaes;

/** Standard test functions for evolution strategies, minimum 0 (the CMA-ES tests and `fedbpt bench cmaes`). */
public final class Objectives {
    private Objectives() {}

    public static double sphere(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v * v;
        }
        return s;
    }

    /** Axis-parallel ellipsoid with condition number 1e6: sum 10^(6 (i-1)/(n-1)) x_i^2. */
    public static double ellipsoid(double[] x) {
        int n = x.length;
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += Math.pow(1e6, n == 1 ? 0 : (double) i / (n - 1)) * x[i] * x[i];
        }
        return s;
    }

    /** Rosenbrock's function, minimum at (1, ..., 1). */
    public static double rosenbrock(double[] x) {
        double s = 0;
        for (int i = 0; i + 1 < x.length; i++) {
            double a = x[i] * x[i] - x[i + 1];
            double b = x[i] - 1;
            s += 100 * a * a + b * b;
        }
        return s;
    }
}
