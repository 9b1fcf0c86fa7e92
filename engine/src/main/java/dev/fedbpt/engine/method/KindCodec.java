package dev.fedbpt.engine.method;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A payload codec over a fixed set of kinds: an encoding is a kind byte, then the payload's fields as its kind's
 * writer puts them ({@link PayloadWriter}); decoding reads the kind byte and hands the rest to that kind's reader
 * ({@link PayloadReader}), refusing bytes cut short or left over. A method's codec declares its kinds in its
 * constructor, each a number, a payload type and the fields in order, and nothing else.
 */
public abstract class KindCodec implements PayloadCodec {
    private final String name;
    private final List<Kind<?>> written = new ArrayList<>();
    private final Map<Byte, Function<PayloadReader, ? extends Payload>> readers = new HashMap<>();

    protected KindCodec(String name) {
        this.name = name;
    }

    private record Kind<T extends Payload>(byte kind, Class<T> type, BiConsumer<PayloadWriter, T> write) {
        byte[] encode(Payload payload) {
            PayloadWriter out = new PayloadWriter().put(kind);
            write.accept(out, type.cast(payload));
            return out.toByteArray();
        }
    }

    /** Payloads of {@code type} are written after kind byte {@code kind} by {@code write} and read back by read. */
    protected final <T extends Payload> void kind(int kind, Class<T> type, BiConsumer<PayloadWriter, T> write,
                                                  Function<PayloadReader, ? extends T> read) {
        readOnly(kind, read);
        written.add(new Kind<>((byte) kind, type, write));
    }

    /** Bytes of kind {@code kind} are read by {@code read}: a kind this codec no longer writes, which journals hold. */
    protected final void readOnly(int kind, Function<PayloadReader, ? extends Payload> read) {
        if (kind != (byte) kind || readers.putIfAbsent((byte) kind, read) != null) {
            throw new IllegalStateException("the " + name + " codec has kind " + kind + " twice or out of range");
        }
    }

    @Override
    public final String name() {
        return name;
    }

    /** @throws IllegalArgumentException for a payload of another method (or null), naming this codec */
    @Override
    public final byte[] encode(Payload payload) {
        for (Kind<?> kind : written) {
            if (kind.type().isInstance(payload)) {
                return kind.encode(payload);
            }
        }
        throw new IllegalArgumentException("the " + name + " codec does not encode "
                + (payload == null ? "null" : payload.getClass().getName()));
    }

    /** @throws IllegalArgumentException when the bytes are cut short, have bytes left over, or a reader refuses them */
    @Override
    public final Payload decode(byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("no bytes to decode as a " + name + " payload");
        }
        try {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            byte kind = buffer.get();
            Function<PayloadReader, ? extends Payload> read = readers.get(kind);
            if (read == null) {
                throw new IllegalArgumentException("unknown " + name + " payload kind " + kind);
            }
            Payload payload = read.apply(new PayloadReader(buffer));
            if (buffer.hasRemaining()) {
                throw new IllegalArgumentException(buffer.remaining() + " bytes left after a " + name + " payload");
            }
            return payload;
        } catch (BufferUnderflowException | NegativeArraySizeException e) {
            throw new IllegalArgumentException("a " + name + " payload of " + bytes.length + " bytes is cut short", e);
        }
    }
}
