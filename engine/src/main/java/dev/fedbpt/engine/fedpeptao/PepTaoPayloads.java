package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.Payload;
import dev.fedbpt.engine.method.PayloadBytes;
import dev.fedbpt.engine.method.PayloadCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * FedPepTAO's payload codec, for the journal and the wire: big-endian, floats and doubles as their IEEE 754 bits, a
 * kind byte, then the fields in record order; a float array as its length and values, a list as its size and its
 * entries, a map of control variates as its size and (device id, values) pairs in id order, a missing array (the
 * layers before Algorithm 1 has chosen them, Delta before the first aggregation) as length -1.
 */
public final class PepTaoPayloads implements PayloadCodec {
    public static final String NAME = "fedpeptao";
    private static final byte STATE = 1;
    private static final byte DOWNLINK = 2;
    private static final byte UPLOAD = 3;
    private static final byte MEMORY = 4;
    private static final byte PERSONAL = 5;
    private static final byte RATIO = 6;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] encode(Payload payload) {
        if (payload instanceof PepTaoState s) {
            int size = 1 + 4 + floats(s.global()) + ints(s.selected()) + 4 + 4 + 8 + PayloadBytes.size(s.cg())
                    + PayloadBytes.size(s.m()) + doubles(s.deltaPrev()) + 8 + 4
                    + 4 + s.personal().size() * PERSONAL_BYTES;
            for (PepTaoState.DeviceScores d : s.layerScores()) size += 8 + PayloadBytes.size(d.scores());
            for (double[] c : s.ci().values()) size += 4 + PayloadBytes.size(c);
            ByteBuffer out = ByteBuffer.allocate(size);
            out.put(STATE).putInt(s.round());
            putFloats(out, s.global());
            putInts(out, s.selected());
            out.putInt(s.restart()).putInt(s.layerScores().size());
            for (PepTaoState.DeviceScores d : s.layerScores()) {
                out.putInt(d.clientId()).putInt(d.rows());
                PayloadBytes.put(out, d.scores());
            }
            out.putDouble(s.keepRatio());
            PayloadBytes.put(out, s.cg());
            PayloadBytes.put(out, s.m());
            putDoubles(out, s.deltaPrev());
            out.putDouble(s.eta()).putInt(s.ci().size());
            for (Map.Entry<Integer, double[]> e : s.ci().entrySet()) {
                out.putInt(e.getKey());
                PayloadBytes.put(out, e.getValue());
            }
            out.putInt(s.personal().size());
            for (PersonalAccuracy r : s.personal()) putPersonal(out, r);
            return out.array();
        }
        if (payload instanceof PepTaoDownlink d) {
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + ints(d.selected()) + 4 + floats(d.params()));
            out.put(DOWNLINK).putInt(d.round());
            putInts(out, d.selected());
            out.putInt(d.restart());
            putFloats(out, d.params());
            return out.array();
        }
        if (payload instanceof PepTaoUpload u) {
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + 4 + 8 + 4 + 4 + floats(u.selected())
                    + PayloadBytes.size(u.layerScores()));
            out.put(UPLOAD).putInt(u.round()).putInt(u.clientId()).putDouble(u.loss()).putInt(u.sampleCount())
                    .putInt(u.steps());
            putFloats(out, u.selected());
            PayloadBytes.put(out, u.layerScores());
            return out.array();
        }
        if (payload instanceof RatioUpload r) {
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + 4 + 8 + 4 + 8);
            out.put(RATIO).putInt(r.round()).putInt(r.clientId()).putDouble(r.loss()).putInt(r.sampleCount())
                    .putDouble(r.ratio());
            return out.array();
        }
        if (payload instanceof PersonalPrefix p) {
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + floats(p.params()) + floats(p.adamM()) + floats(p.adamV())
                    + 4);
            out.put(MEMORY).putInt(p.round());
            putFloats(out, p.params());
            putFloats(out, p.adamM());
            putFloats(out, p.adamV());
            out.putInt(p.adamSteps());
            return out.array();
        }
        if (payload instanceof PersonalAccuracy r) {
            ByteBuffer out = ByteBuffer.allocate(1 + PERSONAL_BYTES);
            out.put(PERSONAL);
            putPersonal(out, r);
            return out.array();
        }
        throw PayloadBytes.notEncodable(NAME, payload);
    }

    @Override
    public Payload decode(byte[] bytes) {
        return PayloadBytes.decode(NAME, bytes, in -> {
            byte kind = in.get();
            return switch (kind) {
                case STATE -> state(in);
                case DOWNLINK -> new PepTaoDownlink(in.getInt(), readInts(in), in.getInt(), floats(in));
                case UPLOAD -> new PepTaoUpload(in.getInt(), in.getInt(), in.getDouble(), in.getInt(), in.getInt(),
                        floats(in), PayloadBytes.doubles(in));
                case RATIO -> new RatioUpload(in.getInt(), in.getInt(), in.getDouble(), in.getInt(), in.getDouble());
                case MEMORY -> new PersonalPrefix(in.getInt(), floats(in), floats(in), floats(in), in.getInt());
                case PERSONAL -> personal(in);
                default -> throw PayloadBytes.unknownKind(NAME, kind);
            };
        });
    }

    private static PepTaoState state(ByteBuffer in) {
        int round = in.getInt();
        float[] global = floats(in);
        int[] selected = readInts(in);
        int restart = in.getInt();
        int scored = in.getInt();
        List<PepTaoState.DeviceScores> scores = new ArrayList<>();
        for (int k = 0; k < scored; k++) {
            scores.add(new PepTaoState.DeviceScores(in.getInt(), in.getInt(), PayloadBytes.doubles(in)));
        }
        double keepRatio = in.getDouble();
        double[] cg = PayloadBytes.doubles(in);
        double[] m = PayloadBytes.doubles(in);
        double[] deltaPrev = readDoubles(in);
        double eta = in.getDouble();
        int devices = in.getInt();
        SortedMap<Integer, double[]> ci = new TreeMap<>();
        for (int k = 0; k < devices; k++) ci.put(in.getInt(), PayloadBytes.doubles(in));
        int results = in.getInt();
        List<PersonalAccuracy> personal = new ArrayList<>(results);
        for (int k = 0; k < results; k++) personal.add(personal(in));
        return new PepTaoState(round, global, selected, restart, List.copyOf(scores), keepRatio, cg, m, deltaPrev,
                eta, ci, List.copyOf(personal));
    }

    /** A possibly missing int array: length -1 for none. */
    private static int ints(int[] values) {
        return values == null ? 4 : PayloadBytes.size(values);
    }

    private static void putInts(ByteBuffer out, int[] values) {
        if (values == null) {
            out.putInt(-1);
        } else {
            PayloadBytes.put(out, values);
        }
    }

    private static int[] readInts(ByteBuffer in) {
        in.mark();
        if (in.getInt() == -1) return null;
        in.reset();
        return PayloadBytes.ints(in);
    }

    /** A possibly missing double array: length -1 for none. */
    private static int doubles(double[] values) {
        return values == null ? 4 : PayloadBytes.size(values);
    }

    private static void putDoubles(ByteBuffer out, double[] values) {
        if (values == null) {
            out.putInt(-1);
        } else {
            PayloadBytes.put(out, values);
        }
    }

    private static double[] readDoubles(ByteBuffer in) {
        in.mark();
        if (in.getInt() == -1) return null;
        in.reset();
        return PayloadBytes.doubles(in);
    }

    private static final int PERSONAL_BYTES = 4 + 4 + 8 + 4 + 1 + 4 + 4;

    private static void putPersonal(ByteBuffer out, PersonalAccuracy r) {
        out.putInt(r.round()).putInt(r.clientId()).putDouble(r.loss()).putInt(r.sampleCount())
                .put((byte) (r.participant() ? 1 : 0)).putInt(r.correct()).putInt(r.testCount());
    }

    private static PersonalAccuracy personal(ByteBuffer in) {
        return new PersonalAccuracy(in.getInt(), in.getInt(), in.getDouble(), in.getInt(), in.get() != 0,
                in.getInt(), in.getInt());
    }

    private static int floats(float[] values) {
        return 4 + 4 * values.length;
    }

    private static void putFloats(ByteBuffer out, float[] values) {
        out.putInt(values.length);
        out.asFloatBuffer().put(values);
        out.position(out.position() + 4 * values.length);
    }

    private static float[] floats(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 || length > in.remaining() / 4) {
            throw new IllegalArgumentException("a float array of " + length + " values in " + in.remaining()
                    + " bytes");
        }
        float[] values = new float[length];
        in.asFloatBuffer().get(values);
        in.position(in.position() + 4 * length);
        return values;
    }
}
