package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.Payload;
import dev.fedbpt.engine.method.PayloadBytes;
import dev.fedbpt.engine.method.PayloadCodec;
import java.nio.ByteBuffer;

/**
 * The payload codec of the gradient methods, for the journal and the wire: big-endian, floats and doubles as their
 * IEEE 754 bits. A kind byte, then the fields in record order; the parameters as one row of
 * {@link PayloadBytes#put(ByteBuffer, float[][])}.
 */
public final class GradientPayloads implements PayloadCodec {
    public static final String NAME = "gradient";
    private static final byte STATE = 1;
    private static final byte UPLOAD = 2;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] encode(Payload payload) {
        if (payload instanceof PromptState s) {
            float[][] params = {s.params()};
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + PayloadBytes.size(params));
            out.put(STATE).putInt(s.round());
            PayloadBytes.put(out, params);
            return out.array();
        }
        if (payload instanceof ParamsUpload u) {
            float[][] params = {u.params()};
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + 4 + 8 + 4 + PayloadBytes.size(params));
            out.put(UPLOAD).putInt(u.round()).putInt(u.clientId()).putDouble(u.loss()).putInt(u.sampleCount());
            PayloadBytes.put(out, params);
            return out.array();
        }
        throw PayloadBytes.notEncodable(NAME, payload);
    }

    @Override
    public Payload decode(byte[] bytes) {
        return PayloadBytes.decode(NAME, bytes, in -> {
            byte kind = in.get();
            return switch (kind) {
                case STATE -> new PromptState(in.getInt(), PayloadBytes.floatMatrix(in)[0]);
                case UPLOAD -> new ParamsUpload(in.getInt(), in.getInt(), in.getDouble(), in.getInt(),
                        PayloadBytes.floatMatrix(in)[0]);
                default -> throw PayloadBytes.unknownKind(NAME, kind);
            };
        });
    }
}
