package dev.fedbpt.engine.method;

/**
 * The width of the numbers a client uploads: IEEE 754 binary64 (exact, the default), binary32 or binary16. A client
 * rounds what it uploads to its precision; {@link PayloadWriter#putNarrow(double[])} then writes each array at the
 * narrowest width that holds all of its values exactly, so a rounded upload costs 4 or 2 bytes a number on the wire
 * and reads back bit for bit.
 */
public enum Precision {
    FLOAT64(8), FLOAT32(4), FLOAT16(2);

    private final int bytes;

    Precision(int bytes) {
        this.bytes = bytes;
    }

    /** Bytes per number on the wire. */
    public int bytes() {
        return bytes;
    }

    /** {@code value} rounded to this precision (to nearest, ties to even), as a double. */
    public double round(double value) {
        return switch (this) {
            case FLOAT64 -> value;
            case FLOAT32 -> (float) value;
            case FLOAT16 -> Fp16.round(value);
        };
    }

    /** A rounded copy (the array itself at FLOAT64). */
    public double[] round(double[] values) {
        if (this == FLOAT64) {
            return values;
        }
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = round(values[i]);
        }
        return out;
    }

    /** The narrowest precision that holds every value exactly (NaN and infinities included). */
    public static Precision narrowest(double[] values) {
        Precision narrowest = FLOAT16;
        for (double v : values) {
            if (narrowest == FLOAT16 && !same(FLOAT16.round(v), v)) {
                narrowest = FLOAT32;
            }
            if (narrowest == FLOAT32 && !same(FLOAT32.round(v), v)) {
                return FLOAT64;
            }
        }
        return narrowest;
    }

    private static boolean same(double a, double b) {
        return Double.doubleToRawLongBits(a) == Double.doubleToRawLongBits(b);
    }
}
