package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.method.Payload;
import dev.fedbpt.engine.method.PayloadBytes;
import dev.fedbpt.engine.method.PayloadCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload codec of this package's methods: the global state (also the downlink) and the clients' uploads, as
 * big-endian IEEE 754 doubles, so decoding gives back every bit. Layout: a kind byte, then the fields in record
 * order ({@link PayloadBytes}: arrays after their length, matrices after their shape), an optional part after a
 * presence byte. A client's result writes its mean, sigmas and told fitness values at the narrowest width that holds
 * them exactly ({@link PayloadBytes#putNarrow}): 8 bytes a number at float64 precision, 4 or 2 for uploads rounded to
 * float32 or float16 ({@code search.upload-precision}).
 */
public final class CmaesPayloads implements PayloadCodec {
    public static final String NAME = "cmaes";
    private static final byte GLOBAL_STATE = 1;
    private static final byte LOCAL_RESULT = 2; // results stored before uploads could be narrower; read, not written
    private static final byte LOCAL_RESULT_NARROW = 3;
    private static final byte ROUND_RESULTS = 4;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] encode(Payload payload) {
        if (payload instanceof GlobalState global) {
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + size(global.cmaes()));
            out.put(GLOBAL_STATE).putInt(global.round());
            put(out, global.cmaes());
            return out.array();
        }
        if (payload instanceof LocalResult result) {
            CmaesState local = result.localState();
            double[][] told = result.told();
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + 4 + PayloadBytes.sizeNarrow(result.mean())
                    + PayloadBytes.sizeNarrow(result.sigmas()) + 8 + 4 + 1 + (local == null ? 0 : size(local))
                    + 1 + (told == null ? 0 : PayloadBytes.sizeNarrow(told)));
            out.put(LOCAL_RESULT_NARROW).putInt(result.round()).putInt(result.clientId());
            PayloadBytes.putNarrow(out, result.mean());
            PayloadBytes.putNarrow(out, result.sigmas());
            out.putDouble(result.loss()).putInt(result.sampleCount());
            out.put((byte) (local == null ? 0 : 1));
            if (local != null) {
                put(out, local);
            }
            out.put((byte) (told == null ? 0 : 1));
            if (told != null) {
                PayloadBytes.putNarrow(out, told);
            }
            return out.array();
        }
        if (payload instanceof RoundResults round) {
            List<byte[]> results = round.results().stream().map(this::encode).toList();
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + results.stream().mapToInt(r -> 4 + r.length).sum());
            out.put(ROUND_RESULTS).putInt(results.size());
            results.forEach(r -> out.putInt(r.length).put(r));
            return out.array();
        }
        throw PayloadBytes.notEncodable(NAME, payload);
    }

    @Override
    public Payload decode(byte[] bytes) {
        return PayloadBytes.decode(NAME, bytes, in -> {
            byte kind = in.get();
            return switch (kind) {
                case GLOBAL_STATE -> new GlobalState(in.getInt(), getState(in));
                case LOCAL_RESULT -> new LocalResult(in.getInt(), in.getInt(), PayloadBytes.doubles(in),
                        PayloadBytes.doubles(in), in.getDouble(), in.getInt(), in.get() == 0 ? null : getState(in));
                case LOCAL_RESULT_NARROW -> new LocalResult(in.getInt(), in.getInt(), PayloadBytes.narrowDoubles(in),
                        PayloadBytes.narrowDoubles(in), in.getDouble(), in.getInt(),
                        in.get() == 0 ? null : getState(in), in.get() == 0 ? null : PayloadBytes.narrowMatrix(in));
                case ROUND_RESULTS -> roundResults(in);
                default -> throw PayloadBytes.unknownKind(NAME, kind);
            };
        });
    }

    private RoundResults roundResults(ByteBuffer in) {
        int count = in.getInt();
        if (count < 1 || count > in.remaining() / 4) {
            throw new IllegalArgumentException("a round's results claim " + count + " uploads");
        }
        List<LocalResult> results = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int length = in.getInt();
            if (length < 0 || length > in.remaining()) {
                throw new java.nio.BufferUnderflowException();
            }
            byte[] one = new byte[length];
            in.get(one);
            results.add((LocalResult) decode(one));
        }
        return new RoundResults(results);
    }

    private static int size(CmaesState s) {
        return PayloadBytes.size(s.mean()) + 8 + PayloadBytes.size(s.covariance()) + PayloadBytes.size(s.pathSigma())
                + PayloadBytes.size(s.pathC()) + 8 + 1
                + (s.decomposed() == null ? 0 : PayloadBytes.size(s.decomposed())) + 4;
    }

    private static void put(ByteBuffer out, CmaesState s) {
        PayloadBytes.put(out, s.mean());
        out.putDouble(s.sigma());
        PayloadBytes.put(out, s.covariance());
        PayloadBytes.put(out, s.pathSigma());
        PayloadBytes.put(out, s.pathC());
        out.putLong(s.generation());
        out.put((byte) (s.decomposed() == null ? 0 : 1));
        if (s.decomposed() != null) {
            PayloadBytes.put(out, s.decomposed());
        }
        out.putInt(s.tellsSinceDecomposition());
    }

    private static CmaesState getState(ByteBuffer in) {
        double[] mean = PayloadBytes.doubles(in);
        double sigma = in.getDouble();
        double[][] covariance = PayloadBytes.matrix(in);
        double[] pathSigma = PayloadBytes.doubles(in);
        double[] pathC = PayloadBytes.doubles(in);
        long generation = in.getLong();
        double[][] decomposed = in.get() == 0 ? null : PayloadBytes.matrix(in);
        return new CmaesState(mean, sigma, covariance, pathSigma, pathC, generation, decomposed, in.getInt());
    }
}
