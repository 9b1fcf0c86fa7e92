package dev.fedbpt.engine.method;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.function.Function;

/**
 * The pieces every payload codec writes, big-endian and exact: arrays preceded by their length, rectangular matrices
 * by their shape; and the reading of a whole payload, which refuses bytes cut short or left over. Lengths read back
 * are checked against what is left before anything is allocated, so damaged bytes never ask for gigabytes.
 */
public final class PayloadBytes {
    private PayloadBytes() {}

    /**
     * Reads one payload of codec {@code codec} from {@code bytes} with {@code read}, which starts at the first byte.
     *
     * @throws IllegalArgumentException when the bytes are cut short, have bytes left over, or {@code read} refuses them
     */
    public static Payload decode(String codec, byte[] bytes, Function<ByteBuffer, Payload> read) {
        if (bytes == null) {
            throw new IllegalArgumentException("no bytes to decode as a " + codec + " payload");
        }
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            Payload payload = read.apply(in);
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " bytes left after a " + codec + " payload");
            }
            return payload;
        } catch (BufferUnderflowException | NegativeArraySizeException e) {
            throw new IllegalArgumentException("a " + codec + " payload of " + bytes.length + " bytes is cut short", e);
        }
    }

    /** The refusal of a codec asked to encode a payload of another method (or null). */
    public static IllegalArgumentException notEncodable(String codec, Payload payload) {
        return new IllegalArgumentException("the " + codec + " codec does not encode "
                + (payload == null ? "null" : payload.getClass().getName()));
    }

    /** The refusal of a codec reading a kind byte it never writes. */
    public static IllegalArgumentException unknownKind(String codec, byte kind) {
        return new IllegalArgumentException("unknown " + codec + " payload kind " + kind);
    }

    public static int size(double[] values) {
        return 4 + 8 * values.length;
    }

    public static int size(int[] values) {
        return 4 + 4 * values.length;
    }

    /** Bytes of a rectangular matrix: its shape and its entries. */
    public static int size(double[][] matrix) {
        return 8 + 8 * matrix.length * columns(matrix);
    }

    public static void put(ByteBuffer out, double[] values) {
        out.putInt(values.length);
        out.asDoubleBuffer().put(values);
        out.position(out.position() + 8 * values.length);
    }

    public static double[] doubles(ByteBuffer in) {
        double[] values = new double[length(in, 8)];
        in.asDoubleBuffer().get(values);
        in.position(in.position() + 8 * values.length);
        return values;
    }

    /** Bytes of {@code values} as {@link #putNarrow} writes them. */
    public static int sizeNarrow(double[] values) {
        return 1 + 4 + Precision.narrowest(values).bytes() * values.length;
    }

    /**
     * The values at the narrowest IEEE 754 width that holds them all exactly ({@link Precision#narrowest}): a width
     * byte (8, 4 or 2), the length, the values. {@link #narrowDoubles} reads back the same bits.
     */
    public static void putNarrow(ByteBuffer out, double[] values) {
        Precision precision = Precision.narrowest(values);
        out.put((byte) precision.bytes()).putInt(values.length);
        for (double v : values) {
            switch (precision) {
                case FLOAT64 -> out.putDouble(v);
                case FLOAT32 -> out.putFloat((float) v);
                case FLOAT16 -> out.putShort(Fp16.fromFloat((float) v));
            }
        }
    }

    public static double[] narrowDoubles(ByteBuffer in) {
        int width = in.get();
        if (width != 8 && width != 4 && width != 2) {
            throw new IllegalArgumentException("no number width of " + width + " bytes");
        }
        double[] values = new double[length(in, width)];
        for (int i = 0; i < values.length; i++) {
            values[i] = width == 8 ? in.getDouble() : width == 4 ? in.getFloat() : Fp16.toFloat(in.getShort());
        }
        return values;
    }

    /** Bytes of a matrix as {@link #putNarrow(ByteBuffer, double[][])} writes it. */
    public static int sizeNarrow(double[][] rows) {
        int size = 4;
        for (double[] row : rows) {
            size += sizeNarrow(row);
        }
        return size;
    }

    /** The number of rows, then each row as {@link #putNarrow(ByteBuffer, double[])} writes it. */
    public static void putNarrow(ByteBuffer out, double[][] rows) {
        out.putInt(rows.length);
        for (double[] row : rows) {
            putNarrow(out, row);
        }
    }

    public static double[][] narrowMatrix(ByteBuffer in) {
        double[][] rows = new double[length(in, 5)][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = narrowDoubles(in);
        }
        return rows;
    }

    public static void put(ByteBuffer out, int[] values) {
        out.putInt(values.length);
        out.asIntBuffer().put(values);
        out.position(out.position() + 4 * values.length);
    }

    public static int[] ints(ByteBuffer in) {
        int[] values = new int[length(in, 4)];
        in.asIntBuffer().get(values);
        in.position(in.position() + 4 * values.length);
        return values;
    }

    /** @throws IllegalArgumentException for a ragged matrix or one whose rows are empty */
    public static void put(ByteBuffer out, double[][] matrix) {
        int columns = columns(matrix);
        for (double[] row : matrix) {
            if (row == null || row.length != columns || columns == 0) {
                throw new IllegalArgumentException("a payload matrix must be rectangular with entries in every row");
            }
        }
        out.putInt(matrix.length).putInt(columns);
        for (double[] row : matrix) {
            out.asDoubleBuffer().put(row);
            out.position(out.position() + 8 * columns);
        }
    }

    public static double[][] matrix(ByteBuffer in) {
        int rows = in.getInt();
        int columns = in.getInt();
        if (rows < 0 || columns < 0 || (rows > 0 && columns == 0) || (long) rows * columns > in.remaining() / 8) {
            throw new BufferUnderflowException();
        }
        double[][] matrix = new double[rows][columns];
        for (double[] row : matrix) {
            in.asDoubleBuffer().get(row);
            in.position(in.position() + 8 * columns);
        }
        return matrix;
    }

    private static int columns(double[][] matrix) {
        return matrix.length == 0 || matrix[0] == null ? 0 : matrix[0].length;
    }

    /** Bytes of a rectangular float matrix: its shape and its entries. */
    public static int size(float[][] matrix) {
        return 8 + 4 * matrix.length * (matrix.length == 0 ? 0 : matrix[0].length);
    }

    /** @throws IllegalArgumentException for a ragged matrix or one whose rows are empty */
    public static void put(ByteBuffer out, float[][] matrix) {
        int columns = matrix.length == 0 ? 0 : rectangular(matrix.length, t -> matrix[t] == null ? -1
                : matrix[t].length);
        out.putInt(matrix.length).putInt(columns);
        for (float[] row : matrix) {
            out.asFloatBuffer().put(row);
            out.position(out.position() + 4 * columns);
        }
    }

    public static float[][] floatMatrix(ByteBuffer in) {
        int[] shape = shape(in, 4);
        float[][] matrix = new float[shape[0]][shape[1]];
        for (float[] row : matrix) {
            in.asFloatBuffer().get(row);
            in.position(in.position() + 4 * row.length);
        }
        return matrix;
    }

    /** Bytes of a rectangular int matrix: its shape and its entries. */
    public static int size(int[][] matrix) {
        return 8 + 4 * matrix.length * (matrix.length == 0 ? 0 : matrix[0].length);
    }

    /** @throws IllegalArgumentException for a ragged matrix or one whose rows are empty */
    public static void put(ByteBuffer out, int[][] matrix) {
        int columns = matrix.length == 0 ? 0 : rectangular(matrix.length, t -> matrix[t] == null ? -1
                : matrix[t].length);
        out.putInt(matrix.length).putInt(columns);
        for (int[] row : matrix) {
            out.asIntBuffer().put(row);
            out.position(out.position() + 4 * columns);
        }
    }

    public static int[][] intMatrix(ByteBuffer in) {
        int[] shape = shape(in, 4);
        int[][] matrix = new int[shape[0]][shape[1]];
        for (int[] row : matrix) {
            in.asIntBuffer().get(row);
            in.position(in.position() + 4 * row.length);
        }
        return matrix;
    }

    /** The common row length of {@code rows} rows, refusing a ragged matrix or empty rows. */
    private static int rectangular(int rows, java.util.function.IntUnaryOperator rowLength) {
        int columns = rowLength.applyAsInt(0);
        for (int t = 0; t < rows; t++) {
            if (rowLength.applyAsInt(t) != columns || columns <= 0) {
                throw new IllegalArgumentException("a payload matrix must be rectangular with entries in every row");
            }
        }
        return columns;
    }

    /** A matrix's shape read back, checked against what is left. */
    private static int[] shape(ByteBuffer in, int bytesEach) {
        int rows = in.getInt();
        int columns = in.getInt();
        if (rows < 0 || columns < 0 || (rows > 0 && columns == 0) || (long) rows * columns > in.remaining() / bytesEach) {
            throw new BufferUnderflowException();
        }
        return new int[] {rows, columns};
    }

    /** A length read back, checked against what is left. */
    private static int length(ByteBuffer in, int bytesEach) {
        int length = in.getInt();
        if (length < 0 || (long) length * bytesEach > in.remaining()) {
            throw new BufferUnderflowException();
        }
        return length;
    }
}
