package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.method.KindCodec;
import dev.fedbpt.engine.method.PayloadReader;
import dev.fedbpt.engine.method.PayloadWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload codec of this package's methods: the global state (also the downlink) and the clients' uploads, as
 * big-endian IEEE 754 doubles, so decoding gives back every bit. Layout: a kind byte, then the fields in record
 * order ({@link PayloadWriter}: arrays after their length, matrices after their shape), an optional part after a
 * presence byte. A client's result writes its mean, sigmas and told fitness values at the narrowest width that holds
 * them exactly ({@link PayloadWriter#putNarrow}): 8 bytes a number at float64 precision, 4 or 2 for uploads rounded
 * to float32 or float16 ({@code search.upload-precision}). A round's results are each result's encoding after its
 * length.
 */
public final class CmaesPayloads extends KindCodec {
    public static final String NAME = "cmaes";

    public CmaesPayloads() {
        super(NAME);
        kind(1, GlobalState.class, (out, g) -> put(out.putInt(g.round()), g.cmaes()),
                in -> new GlobalState(in.getInt(), state(in)));
        // results stored before uploads could be narrower
        readOnly(2, in -> new LocalResult(in.getInt(), in.getInt(), in.doubles(), in.doubles(), in.getDouble(),
                in.getInt(), in.optional(CmaesPayloads::state)));
        kind(3, LocalResult.class,
                (out, r) -> out.putInt(r.round()).putInt(r.clientId()).putNarrow(r.mean()).putNarrow(r.sigmas())
                        .putDouble(r.loss()).putInt(r.sampleCount()).putOptional(r.localState(), CmaesPayloads::put)
                        .putOptional(r.told(), PayloadWriter::putNarrow),
                in -> new LocalResult(in.getInt(), in.getInt(), in.narrowDoubles(), in.narrowDoubles(),
                        in.getDouble(), in.getInt(), in.optional(CmaesPayloads::state),
                        in.optional(PayloadReader::narrowMatrix)));
        kind(4, RoundResults.class,
                (out, round) -> out.putList(round.results(), (o, r) -> {
                    byte[] result = encode(r);
                    o.putInt(result.length).put(result);
                }),
                this::roundResults);
    }

    private RoundResults roundResults(PayloadReader in) {
        int count = in.getInt();
        if (count < 1 || count > in.remaining() / 4) {
            throw new IllegalArgumentException("a round's results claim " + count + " uploads");
        }
        List<LocalResult> results = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            results.add((LocalResult) decode(in.bytes(in.getInt())));
        }
        return new RoundResults(results);
    }

    private static PayloadWriter put(PayloadWriter out, CmaesState s) {
        return out.put(s.mean()).putDouble(s.sigma()).put(s.covariance()).put(s.pathSigma()).put(s.pathC())
                .putLong(s.generation()).putOptional(s.decomposed(), PayloadWriter::put)
                .putInt(s.tellsSinceDecomposition());
    }

    private static CmaesState state(PayloadReader in) {
        return new CmaesState(in.doubles(), in.getDouble(), in.matrix(), in.doubles(), in.doubles(), in.getLong(),
                in.optional(PayloadReader::matrix), in.getInt());
    }
}
