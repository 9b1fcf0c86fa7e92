package dev.fedbpt.engine.method;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Reads back, field by field, what {@link PayloadWriter} wrote. Every length, shape and size read is checked against
 * the bytes left before anything is allocated, so damaged bytes never ask for gigabytes: bytes cut short throw
 * {@link BufferUnderflowException}, which {@link KindCodec#decode} reports as an IllegalArgumentException.
 */
public final class PayloadReader {
    private final ByteBuffer in;

    PayloadReader(ByteBuffer in) {
        this.in = in;
    }

    /** The bytes not read yet. */
    public int remaining() {
        return in.remaining();
    }

    public byte get() {
        return in.get();
    }

    /** A byte, true unless 0. */
    public boolean getBoolean() {
        return in.get() != 0;
    }

    public int getInt() {
        return in.getInt();
    }

    public long getLong() {
        return in.getLong();
    }

    public double getDouble() {
        return in.getDouble();
    }

    /** The next {@code count} bytes as they are. */
    public byte[] bytes(long count) {
        if (count < 0 || count > in.remaining()) {
            throw new BufferUnderflowException();
        }
        byte[] bytes = new byte[(int) count];
        in.get(bytes);
        return bytes;
    }

    public int[] ints() {
        return ints(in.getInt());
    }

    public float[] floats() {
        return floats(in.getInt());
    }

    public double[] doubles() {
        return doubles(in.getInt());
    }

    /** As {@link #ints()}; null for length -1. */
    public int[] nullableInts() {
        int length = in.getInt();
        return length == -1 ? null : ints(length);
    }

    /** As {@link #doubles()}; null for length -1. */
    public double[] nullableDoubles() {
        int length = in.getInt();
        return length == -1 ? null : doubles(length);
    }

    /** What {@link PayloadWriter#putOptional} wrote: null after a presence byte of 0, else the value by read. */
    public <T> T optional(Function<PayloadReader, T> read) {
        return in.get() == 0 ? null : read.apply(this);
    }

    /** What {@link PayloadWriter#putList} wrote, each item by {@code read}, which reads at least minBytesEach. */
    public <T> List<T> list(int minBytesEach, Function<PayloadReader, T> read) {
        int size = checked(in.getInt(), minBytesEach);
        List<T> items = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            items.add(read.apply(this));
        }
        return items;
    }

    /** What {@link PayloadWriter#putNarrow(double[])} wrote, the same bits. */
    public double[] narrowDoubles() {
        int width = in.get();
        if (width != 8 && width != 4 && width != 2) {
            throw new IllegalArgumentException("no number width of " + width + " bytes");
        }
        double[] values = new double[checked(in.getInt(), width)];
        for (int i = 0; i < values.length; i++) {
            values[i] = width == 8 ? in.getDouble() : width == 4 ? in.getFloat() : Fp16.toFloat(in.getShort());
        }
        return values;
    }

    /** What {@link PayloadWriter#putNarrow(double[][])} wrote. */
    public double[][] narrowMatrix() {
        return list(5, PayloadReader::narrowDoubles).toArray(double[][]::new);
    }

    public int[][] intMatrix() {
        int[] shape = shape(4);
        return rows(new int[shape[0]][], shape[1], this::ints);
    }

    public float[][] floatMatrix() {
        int[] shape = shape(4);
        return rows(new float[shape[0]][], shape[1], this::floats);
    }

    public double[][] matrix() {
        int[] shape = shape(8);
        return rows(new double[shape[0]][], shape[1], this::doubles);
    }

    /**
     * What {@link PayloadWriter#putRow} wrote.
     *
     * @throws IllegalArgumentException when the matrix read has other than one row
     */
    public float[] row() {
        float[][] matrix = floatMatrix();
        if (matrix.length != 1) {
            throw new IllegalArgumentException("damaged payload: a vector of " + matrix.length + " rows");
        }
        return matrix[0];
    }

    private int[] ints(int length) {
        int[] values = new int[checked(length, 4)];
        in.asIntBuffer().get(values);
        return skip(values, 4 * values.length);
    }

    private float[] floats(int length) {
        float[] values = new float[checked(length, 4)];
        in.asFloatBuffer().get(values);
        return skip(values, 4 * values.length);
    }

    private double[] doubles(int length) {
        double[] values = new double[checked(length, 8)];
        in.asDoubleBuffer().get(values);
        return skip(values, 8 * values.length);
    }

    /** Fills {@code matrix} with rows of {@code columns} values each, read by {@code row}. */
    private static <R> R[] rows(R[] matrix, int columns, IntFunction<R> row) {
        for (int i = 0; i < matrix.length; i++) {
            matrix[i] = row.apply(columns);
        }
        return matrix;
    }

    /** A matrix's shape (rows, columns), checked against what is left; a matrix of rows has columns. */
    private int[] shape(int bytesEach) {
        int rows = in.getInt();
        int columns = in.getInt();
        if (rows < 0 || columns < 0 || (rows > 0 && columns == 0)
                || (long) rows * columns > in.remaining() / bytesEach) {
            throw new BufferUnderflowException();
        }
        return new int[] {rows, columns};
    }

    /** A length, checked against what is left. */
    private int checked(int length, int bytesEach) {
        if (length < 0 || (long) length * bytesEach > in.remaining()) {
            throw new BufferUnderflowException();
        }
        return length;
    }

    private <T> T skip(T values, int bytes) {
        in.position(in.position() + bytes);
        return values;
    }
}
