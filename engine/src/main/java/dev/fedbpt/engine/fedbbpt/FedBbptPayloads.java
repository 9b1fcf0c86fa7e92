package dev.fedbpt.engine.fedbbpt;

import dev.fedbpt.engine.method.KindCodec;

/**
 * The payload codec of Fed-BBPT and BDPL: the global state (also the downlink), the two kinds of upload and the
 * clients' memory, big-endian, doubles as IEEE 754 bits so decoding gives back every bit. Layout: a kind byte, then
 * the fields in record order; an int array is its length then its elements; a matrix is its row and column counts
 * then its entries row by row (matrices are rectangular). Lengths are checked against the bytes left before anything
 * is allocated, and damaged or foreign bytes are refused with IllegalArgumentException.
 */
public final class FedBbptPayloads extends KindCodec {
    public static final String NAME = "fedbbpt";

    public FedBbptPayloads() {
        super(NAME);
        kind(1, FedBbptState.class,
                (out, s) -> out.putInt(s.round()).putLong(s.apiCalls()).put(s.candidates()).put(s.theta()),
                in -> {
                    int round = in.getInt();
                    long apiCalls = in.getLong();
                    return new FedBbptState(round, in.ints(), in.matrix(), apiCalls);
                });
        kind(2, ThetaUpload.class,
                (out, u) -> out.putInt(u.round()).putInt(u.clientId()).putDouble(u.loss()).putInt(u.sampleCount())
                        .putInt(u.apiCalls()).put(u.theta()),
                in -> {
                    int round = in.getInt();
                    int clientId = in.getInt();
                    double loss = in.getDouble();
                    int sampleCount = in.getInt();
                    int apiCalls = in.getInt();
                    return new ThetaUpload(round, clientId, loss, sampleCount, in.matrix(), apiCalls);
                });
        kind(3, CountsUpload.class,
                (out, c) -> out.putInt(c.round()).putInt(c.clientId()).putInt(c.sampleCount()).put(c.tokens())
                        .put(c.tokenCounts()).put(c.pairFirst()).put(c.pairSecond()).put(c.pairCounts()),
                in -> new CountsUpload(in.getInt(), in.getInt(), in.getInt(), in.ints(), in.ints(), in.ints(),
                        in.ints(), in.ints()));
        kind(4, ClientOptimizerState.class,
                (out, m) -> out.put(m.firstMoment()).put(m.secondMoment()).putLong(m.adamSteps())
                        .putLong(m.apiCalls()).putDouble(m.lastLoss()),
                in -> new ClientOptimizerState(in.matrix(), in.matrix(), in.getLong(), in.getLong(), in.getDouble()));
    }
}
