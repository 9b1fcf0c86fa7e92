package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.KindCodec;
import dev.fedbpt.engine.method.PayloadReader;
import dev.fedbpt.engine.method.PayloadWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * FedPepTAO's payload codec, for the journal and the wire: big-endian, floats and doubles as their IEEE 754 bits, a
 * kind byte, then the fields in record order; a float array as its length and values, a list as its size and its
 * entries, a map of control variates as its size and (device id, values) pairs in id order, a missing array (the
 * layers before Algorithm 1 has chosen them, Delta before the first aggregation) as length -1.
 */
public final class PepTaoPayloads extends KindCodec {
    public static final String NAME = "fedpeptao";
    private static final int PERSONAL_BYTES = 4 + 4 + 8 + 4 + 1 + 4 + 4;

    public PepTaoPayloads() {
        super(NAME);
        kind(1, PepTaoState.class, PepTaoPayloads::state, PepTaoPayloads::state);
        kind(2, PepTaoDownlink.class,
                (out, d) -> out.putInt(d.round()).putNullable(d.selected()).putInt(d.restart()).put(d.params()),
                in -> new PepTaoDownlink(in.getInt(), in.nullableInts(), in.getInt(), in.floats()));
        kind(3, PepTaoUpload.class,
                (out, u) -> out.putInt(u.round()).putInt(u.clientId()).putDouble(u.loss()).putInt(u.sampleCount())
                        .putInt(u.steps()).put(u.selected()).put(u.layerScores()),
                in -> new PepTaoUpload(in.getInt(), in.getInt(), in.getDouble(), in.getInt(), in.getInt(),
                        in.floats(), in.doubles()));
        kind(4, PersonalPrefix.class,
                (out, p) -> out.putInt(p.round()).put(p.params()).put(p.adamM()).put(p.adamV()).putInt(p.adamSteps()),
                in -> new PersonalPrefix(in.getInt(), in.floats(), in.floats(), in.floats(), in.getInt()));
        kind(5, PersonalAccuracy.class, PepTaoPayloads::personal, PepTaoPayloads::personal);
        kind(6, RatioUpload.class,
                (out, r) -> out.putInt(r.round()).putInt(r.clientId()).putDouble(r.loss()).putInt(r.sampleCount())
                        .putDouble(r.ratio()),
                in -> new RatioUpload(in.getInt(), in.getInt(), in.getDouble(), in.getInt(), in.getDouble()));
    }

    private static void state(PayloadWriter out, PepTaoState s) {
        out.putInt(s.round()).put(s.global()).putNullable(s.selected()).putInt(s.restart())
                .putList(s.layerScores(), (o, d) -> o.putInt(d.clientId()).putInt(d.rows()).put(d.scores()))
                .putDouble(s.keepRatio()).put(s.cg()).put(s.m()).putNullable(s.deltaPrev()).putDouble(s.eta())
                .putList(s.ci().entrySet(), (o, e) -> o.putInt(e.getKey()).put(e.getValue()))
                .putList(s.personal(), PepTaoPayloads::personal);
    }

    private static PepTaoState state(PayloadReader in) {
        int round = in.getInt();
        float[] global = in.floats();
        int[] selected = in.nullableInts();
        int restart = in.getInt();
        List<PepTaoState.DeviceScores> scores = in.list(4 + 4 + 4,
                r -> new PepTaoState.DeviceScores(r.getInt(), r.getInt(), r.doubles()));
        double keepRatio = in.getDouble();
        double[] cg = in.doubles();
        double[] m = in.doubles();
        double[] deltaPrev = in.nullableDoubles();
        double eta = in.getDouble();
        TreeMap<Integer, double[]> ci = new TreeMap<>();
        for (Map.Entry<Integer, double[]> e : in.list(4 + 4, r -> Map.entry(r.getInt(), r.doubles()))) {
            ci.put(e.getKey(), e.getValue());
        }
        List<PersonalAccuracy> personal = in.list(PERSONAL_BYTES, PepTaoPayloads::personal);
        return new PepTaoState(round, global, selected, restart, List.copyOf(scores), keepRatio, cg, m, deltaPrev,
                eta, ci, List.copyOf(personal));
    }

    private static void personal(PayloadWriter out, PersonalAccuracy r) {
        out.putInt(r.round()).putInt(r.clientId()).putDouble(r.loss()).putInt(r.sampleCount())
                .putBoolean(r.participant()).putInt(r.correct()).putInt(r.testCount());
    }

    private static PersonalAccuracy personal(PayloadReader in) {
        return new PersonalAccuracy(in.getInt(), in.getInt(), in.getDouble(), in.getInt(), in.getBoolean(),
                in.getInt(), in.getInt());
    }
}
