package dev.fedbpt.engine.fedbbpt;

import dev.fedbpt.engine.method.Payload;
import dev.fedbpt.engine.method.PayloadBytes;
import dev.fedbpt.engine.method.PayloadCodec;
import java.nio.ByteBuffer;

/**
 * The payload codec of Fed-BBPT and BDPL: the global state (also the downlink), the two kinds of upload and the
 * clients' memory, big-endian, doubles as IEEE 754 bits so decoding gives back every bit. Layout: a kind byte, then
 * the fields in record order; an int array is its length then its elements; a matrix is its row and column counts
 * then its entries row by row (matrices are rectangular). Lengths are checked against the bytes left before anything
 * is allocated, and damaged or foreign bytes are refused with IllegalArgumentException.
 */
public final class FedBbptPayloads implements PayloadCodec {
    public static final String NAME = "fedbbpt";
    private static final byte STATE = 1;
    private static final byte THETA_UPLOAD = 2;
    private static final byte COUNTS_UPLOAD = 3;
    private static final byte CLIENT_MEMORY = 4;

    public FedBbptPayloads() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] encode(Payload payload) {
        if (payload instanceof FedBbptState s) {
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + 8 + PayloadBytes.size(s.candidates()) + PayloadBytes.size(s.theta()));
            out.put(STATE).putInt(s.round()).putLong(s.apiCalls());
            PayloadBytes.put(out, s.candidates());
            PayloadBytes.put(out, s.theta());
            return out.array();
        }
        if (payload instanceof ThetaUpload u) {
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + 4 + 8 + 4 + 4 + PayloadBytes.size(u.theta()));
            out.put(THETA_UPLOAD).putInt(u.round()).putInt(u.clientId()).putDouble(u.loss())
                    .putInt(u.sampleCount()).putInt(u.apiCalls());
            PayloadBytes.put(out, u.theta());
            return out.array();
        }
        if (payload instanceof CountsUpload c) {
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + 4 + 4 + PayloadBytes.size(c.tokens()) + PayloadBytes.size(c.tokenCounts())
                    + PayloadBytes.size(c.pairFirst()) + PayloadBytes.size(c.pairSecond()) + PayloadBytes.size(c.pairCounts()));
            out.put(COUNTS_UPLOAD).putInt(c.round()).putInt(c.clientId()).putInt(c.sampleCount());
            PayloadBytes.put(out, c.tokens());
            PayloadBytes.put(out, c.tokenCounts());
            PayloadBytes.put(out, c.pairFirst());
            PayloadBytes.put(out, c.pairSecond());
            PayloadBytes.put(out, c.pairCounts());
            return out.array();
        }
        if (payload instanceof ClientOptimizerState m) {
            ByteBuffer out = ByteBuffer.allocate(1 + PayloadBytes.size(m.firstMoment()) + PayloadBytes.size(m.secondMoment())
                    + 8 + 8 + 8);
            out.put(CLIENT_MEMORY);
            PayloadBytes.put(out, m.firstMoment());
            PayloadBytes.put(out, m.secondMoment());
            out.putLong(m.adamSteps()).putLong(m.apiCalls()).putDouble(m.lastLoss());
            return out.array();
        }
        throw PayloadBytes.notEncodable(NAME, payload);
    }

    @Override
    public Payload decode(byte[] bytes) {
        return PayloadBytes.decode(NAME, bytes, in -> {
            byte kind = in.get();
            return switch (kind) {
                case STATE -> {
                    int round = in.getInt();
                    long apiCalls = in.getLong();
                    yield new FedBbptState(round, PayloadBytes.ints(in), PayloadBytes.matrix(in), apiCalls);
                }
                case THETA_UPLOAD -> {
                    int round = in.getInt();
                    int clientId = in.getInt();
                    double loss = in.getDouble();
                    int sampleCount = in.getInt();
                    int apiCalls = in.getInt();
                    yield new ThetaUpload(round, clientId, loss, sampleCount, PayloadBytes.matrix(in), apiCalls);
                }
                case COUNTS_UPLOAD -> new CountsUpload(in.getInt(), in.getInt(), in.getInt(), PayloadBytes.ints(in),
                        PayloadBytes.ints(in), PayloadBytes.ints(in), PayloadBytes.ints(in), PayloadBytes.ints(in));
                case CLIENT_MEMORY -> new ClientOptimizerState(PayloadBytes.matrix(in), PayloadBytes.matrix(in),
                        in.getLong(), in.getLong(), in.getDouble());
                default -> throw PayloadBytes.unknownKind(NAME, kind);
            };
        });
    }
}
