package dev.fedbpt.engine.method;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collection;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Writes a payload's fields in order, big-endian and exact (floats and doubles as their IEEE 754 bits): numbers as
 * they are, arrays after their length, rectangular matrices after their shape, lists after their size. It grows as
 * it is written, so a codec declares its fields and never counts its bytes. {@link PayloadReader} reads each field
 * back; a {@link KindCodec} makes one and hands it to a payload's writer after the kind byte.
 */
public final class PayloadWriter {
    private ByteBuffer out = ByteBuffer.allocate(256);

    PayloadWriter() {}

    /** The bytes written so far. */
    byte[] toByteArray() {
        byte[] bytes = new byte[out.position()];
        out.get(0, bytes);
        return bytes;
    }

    public PayloadWriter put(byte value) {
        room(1).put(value);
        return this;
    }

    /** One byte: 1 for true, 0 for false. */
    public PayloadWriter putBoolean(boolean value) {
        return put((byte) (value ? 1 : 0));
    }

    public PayloadWriter putInt(int value) {
        room(4).putInt(value);
        return this;
    }

    public PayloadWriter putLong(long value) {
        room(8).putLong(value);
        return this;
    }

    public PayloadWriter putDouble(double value) {
        room(8).putDouble(value);
        return this;
    }

    /** The bytes as they are, with no length. */
    public PayloadWriter put(byte[] raw) {
        room(raw.length).put(raw);
        return this;
    }

    /** The length, then the values. */
    public PayloadWriter put(int[] values) {
        return putInt(values.length).body(values);
    }

    /** The length, then the values. */
    public PayloadWriter put(float[] values) {
        return putInt(values.length).body(values);
    }

    /** The length, then the values. */
    public PayloadWriter put(double[] values) {
        return putInt(values.length).body(values);
    }

    /** As {@link #put(int[])}, null as length -1. */
    public PayloadWriter putNullable(int[] values) {
        return values == null ? putInt(-1) : put(values);
    }

    /** As {@link #put(double[])}, null as length -1. */
    public PayloadWriter putNullable(double[] values) {
        return values == null ? putInt(-1) : put(values);
    }

    /** A presence byte (0 for null, else 1), then the value by {@code write} when there is one. */
    public <T> PayloadWriter putOptional(T value, BiConsumer<PayloadWriter, ? super T> write) {
        put((byte) (value == null ? 0 : 1));
        if (value != null) {
            write.accept(this, value);
        }
        return this;
    }

    /** The size, then each item by {@code write}, in the collection's order. */
    public <T> PayloadWriter putList(Collection<T> items, BiConsumer<PayloadWriter, ? super T> write) {
        putInt(items.size());
        for (T item : items) {
            write.accept(this, item);
        }
        return this;
    }

    /**
     * The values at the narrowest IEEE 754 width that holds them all exactly ({@link Precision#narrowest}): a width
     * byte (8, 4 or 2), the length, the values. {@link PayloadReader#narrowDoubles} reads back the same bits.
     */
    public PayloadWriter putNarrow(double[] values) {
        Precision precision = Precision.narrowest(values);
        put((byte) precision.bytes()).putInt(values.length);
        ByteBuffer out = room(precision.bytes() * values.length);
        for (double v : values) {
            switch (precision) {
                case FLOAT64 -> out.putDouble(v);
                case FLOAT32 -> out.putFloat((float) v);
                case FLOAT16 -> out.putShort(Fp16.fromFloat((float) v));
            }
        }
        return this;
    }

    /** The number of rows, then each row as {@link #putNarrow(double[])} writes it. */
    public PayloadWriter putNarrow(double[][] rows) {
        return putList(Arrays.asList(rows), PayloadWriter::putNarrow);
    }

    /**
     * The shape (rows, columns), then the entries row by row.
     *
     * @throws IllegalArgumentException for a ragged matrix or one whose rows are empty
     */
    public PayloadWriter put(int[][] matrix) {
        return rows(matrix, this::body);
    }

    /** As {@link #put(int[][])}. */
    public PayloadWriter put(float[][] matrix) {
        return rows(matrix, this::body);
    }

    /** As {@link #put(int[][])}. */
    public PayloadWriter put(double[][] matrix) {
        return rows(matrix, this::body);
    }

    /** A vector as the one-row matrix {@code {row}} ({@link PayloadReader#row} reads it back). */
    public PayloadWriter putRow(float[] row) {
        return put(new float[][] {row});
    }

    /** A matrix's shape, then each row by {@code body}; refuses a ragged matrix or one whose rows are empty. */
    private <R> PayloadWriter rows(R[] matrix, Consumer<R> body) {
        int columns = matrix.length == 0 ? 0 : length(matrix[0]);
        for (R row : matrix) {
            if (length(row) != columns || columns <= 0) {
                throw new IllegalArgumentException("a payload matrix must be rectangular with entries in every row");
            }
        }
        putInt(matrix.length).putInt(columns);
        for (R row : matrix) {
            body.accept(row);
        }
        return this;
    }

    private static int length(Object row) {
        return row == null ? -1 : Array.getLength(row);
    }

    /** The values alone, no length. */
    private PayloadWriter body(int[] values) {
        room(4 * values.length).asIntBuffer().put(values);
        return skip(4 * values.length);
    }

    private PayloadWriter body(float[] values) {
        room(4 * values.length).asFloatBuffer().put(values);
        return skip(4 * values.length);
    }

    private PayloadWriter body(double[] values) {
        room(8 * values.length).asDoubleBuffer().put(values);
        return skip(8 * values.length);
    }

    /** The buffer, with room for {@code bytes} more. */
    private ByteBuffer room(int bytes) {
        if (out.remaining() < bytes) {
            long needed = (long) out.position() + bytes;
            ByteBuffer larger = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 8,
                    Math.max(needed, 2L * out.capacity())));
            out = larger.put(out.flip());
        }
        return out;
    }

    /** Moves past {@code bytes} written through a view of the buffer. */
    private PayloadWriter skip(int bytes) {
        out.position(out.position() + bytes);
        return this;
    }
}
