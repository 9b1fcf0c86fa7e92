package dev.fedbpt.engine.fedbbpt;

/** Small helpers on row-major double matrices. */
final class Matrices {
    private Matrices() {}

    static double[][] copy(double[][] m) {
        if (m == null) {
            throw new IllegalArgumentException("matrix must not be null");
        }
        double[][] out = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            if (m[i] == null) {
                throw new IllegalArgumentException("row " + i + " is null");
            }
            out[i] = m[i].clone();
        }
        return out;
    }

    static boolean isRectangular(double[][] m, int rows, int cols) {
        if (m.length != rows) {
            return false;
        }
        for (double[] row : m) {
            if (row.length != cols) {
                return false;
            }
        }
        return true;
    }

    static double[][] filled(int rows, int cols, double value) {
        double[][] out = new double[rows][cols];
        for (double[] row : out) {
            java.util.Arrays.fill(row, value);
        }
        return out;
    }
}
