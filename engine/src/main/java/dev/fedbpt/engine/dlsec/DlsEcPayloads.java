package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.Payload;
import dev.fedbpt.engine.method.PayloadBytes;
import dev.fedbpt.engine.method.PayloadCodec;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload codec of DLS-EC, for the journal and the wire: big-endian, floats and doubles as their IEEE 754 bits,
 * so decoding gives back every bit. A kind byte, then the fields in record order, arrays and matrices as
 * {@link PayloadBytes} writes them. (The messages the paper counts are {@link UpdateWire}'s; this codec carries what
 * the framework stores and sends.)
 */
public final class DlsEcPayloads implements PayloadCodec {
    public static final String NAME = "dls-ec";
    private static final byte STATE = 1;
    private static final byte DOWNLINK = 2;
    private static final byte SEARCH_UPLOAD = 3;
    private static final byte PERSONAL_RESULT = 4;
    private static final byte PERSONAL_PROMPT = 5;
    private static final byte BBT_STATE = 6;
    private static final byte Z_UPLOAD = 7;
    private static final byte DOWNLINK_UPDATE = 8;
    private static final byte SEARCH_UPLOAD_16 = 9; // ids as the paper's 16 bits; SEARCH_UPLOAD (32) is read only
    private static final byte NO_UPDATE = 0;
    private static final byte COMPRESSED = 1;
    private static final byte FULL = 2;
    private static final int PERSONAL_BYTES = 4 + 4 + 8 + 4 + 1 + 4 + 4 + 4;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] encode(Payload payload) {
        if (payload instanceof DlsEcState s) {
            int updateSize = s.update() == null ? 0 : s.update() instanceof Update.Compressed c
                    ? PayloadBytes.size(c.tokens()) + PayloadBytes.size(c.coefficients())
                    : PayloadBytes.size(((Update.Full) s.update()).prompt());
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + PayloadBytes.size(s.prompt()) + 1 + updateSize + 8 + 4
                    + PERSONAL_BYTES * s.personal().size());
            out.put(STATE).putInt(s.round());
            PayloadBytes.put(out, s.prompt());
            if (s.update() == null) {
                out.put(NO_UPDATE);
            } else if (s.update() instanceof Update.Compressed c) {
                out.put(COMPRESSED);
                PayloadBytes.put(out, c.tokens());
                PayloadBytes.put(out, c.coefficients());
            } else {
                out.put(FULL);
                PayloadBytes.put(out, ((Update.Full) s.update()).prompt());
            }
            out.putLong(s.screenedPositions()).putInt(s.personal().size());
            s.personal().forEach(r -> personal(out, r));
            return out.array();
        }
        if (payload instanceof DlsEcDownlink d) {
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + PayloadBytes.size(d.prompt()));
            out.put(DOWNLINK).putInt(d.round());
            PayloadBytes.put(out, d.prompt());
            return out.array();
        }
        if (payload instanceof DlsEcUpdate u) {
            // The paper's message after its shape: compressed or full, T, and Phi (compressed) or D (full).
            byte[] message = UpdateWire.download(u.update());
            boolean compressed = u.update() instanceof Update.Compressed;
            int length;
            int width;
            if (u.update() instanceof Update.Compressed c) {
                length = c.tokens().length;
                width = c.tokens()[0].length;
            } else {
                float[][] prompt = ((Update.Full) u.update()).prompt();
                length = prompt.length;
                width = prompt[0].length;
            }
            ByteBuffer out = ByteBuffer.allocate(1 + 1 + 4 + 4 + message.length);
            out.put(DOWNLINK_UPDATE).put(compressed ? COMPRESSED : FULL).putInt(length).putInt(width).put(message);
            return out.array();
        }
        if (payload instanceof SearchUpload u) {
            byte[] ids = UpdateWire.upload(u.ids());
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + 4 + 8 + 4 + 4 + ids.length);
            out.put(SEARCH_UPLOAD_16).putInt(u.round()).putInt(u.clientId()).putDouble(u.loss())
                    .putInt(u.sampleCount()).putInt(u.ids().length).put(ids);
            return out.array();
        }
        if (payload instanceof PersonalResult r) {
            ByteBuffer out = ByteBuffer.allocate(1 + PERSONAL_BYTES);
            out.put(PERSONAL_RESULT);
            personal(out, r);
            return out.array();
        }
        if (payload instanceof PersonalPrompt p) {
            ByteBuffer out = ByteBuffer.allocate(1 + PayloadBytes.size(p.z()));
            out.put(PERSONAL_PROMPT);
            PayloadBytes.put(out, p.z());
            return out.array();
        }
        if (payload instanceof BbtState b) {
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + PayloadBytes.size(new float[][] {b.z()}) + 4
                    + PERSONAL_BYTES * b.personal().size());
            out.put(BBT_STATE).putInt(b.round());
            PayloadBytes.put(out, new float[][] {b.z()});
            out.putInt(b.personal().size());
            b.personal().forEach(r -> personal(out, r));
            return out.array();
        }
        if (payload instanceof ZUpload u) {
            ByteBuffer out = ByteBuffer.allocate(1 + 4 + 4 + 8 + 4 + PayloadBytes.size(new float[][] {u.z()}));
            out.put(Z_UPLOAD).putInt(u.round()).putInt(u.clientId()).putDouble(u.loss()).putInt(u.sampleCount());
            PayloadBytes.put(out, new float[][] {u.z()});
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
                    float[][] prompt = PayloadBytes.floatMatrix(in);
                    byte updateKind = in.get();
                    Update update = switch (updateKind) {
                        case NO_UPDATE -> null;
                        case COMPRESSED -> new Update.Compressed(PayloadBytes.intMatrix(in),
                                PayloadBytes.floatMatrix(in));
                        case FULL -> new Update.Full(PayloadBytes.floatMatrix(in));
                        default -> throw new IllegalArgumentException("unknown " + NAME + " update kind " + updateKind);
                    };
                    long screened = in.getLong();
                    yield new DlsEcState(round, prompt, update, screened, personalList(in));
                }
                case BBT_STATE -> new BbtState(in.getInt(), vector(in), personalList(in));
                case Z_UPLOAD -> new ZUpload(in.getInt(), in.getInt(), in.getDouble(), in.getInt(), vector(in));
                case DOWNLINK -> new DlsEcDownlink(in.getInt(), PayloadBytes.floatMatrix(in));
                case SEARCH_UPLOAD -> new SearchUpload(in.getInt(), in.getInt(), in.getDouble(), in.getInt(),
                        PayloadBytes.ints(in));
                case PERSONAL_RESULT -> personal(in);
                case PERSONAL_PROMPT -> new PersonalPrompt(PayloadBytes.doubles(in));
                case DOWNLINK_UPDATE -> downlinkUpdate(in);
                case SEARCH_UPLOAD_16 -> new SearchUpload(in.getInt(), in.getInt(), in.getDouble(), in.getInt(),
                        ids16(in));
                default -> throw PayloadBytes.unknownKind(NAME, kind);
            };
        });
    }

    private static List<PersonalResult> personalList(ByteBuffer in) {
        int count = in.getInt();
        if (count < 0 || (long) count * PERSONAL_BYTES > in.remaining()) {
            throw new IllegalArgumentException("damaged " + NAME + " payload: " + count + " personal results");
        }
        List<PersonalResult> personal = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            personal.add(personal(in));
        }
        return personal;
    }

    /** A vector written as a one-row matrix. */
    private static float[] vector(ByteBuffer in) {
        float[][] matrix = PayloadBytes.floatMatrix(in);
        if (matrix.length != 1) {
            throw new IllegalArgumentException("damaged " + NAME + " payload: a vector of " + matrix.length + " rows");
        }
        return matrix[0];
    }

    private static void personal(ByteBuffer out, PersonalResult r) {
        out.putInt(r.round()).putInt(r.clientId()).putDouble(r.loss()).putInt(r.sampleCount())
                .put((byte) (r.participant() ? 1 : 0)).putInt(r.tunedCorrect()).putInt(r.globalCorrect())
                .putInt(r.testCount());
    }

    private static PersonalResult personal(ByteBuffer in) {
        return new PersonalResult(in.getInt(), in.getInt(), in.getDouble(), in.getInt(), in.get() != 0, in.getInt(),
                in.getInt(), in.getInt());
    }

    private static DlsEcUpdate downlinkUpdate(ByteBuffer in) {
        boolean compressed = in.get() == COMPRESSED;
        int length = in.getInt();
        int width = in.getInt();
        if (length < 1 || width < 1 || (long) length * width * (compressed ? 4 : 2) != in.remaining()) {
            throw new IllegalArgumentException("a DLS-EC update of " + length + " x " + width + " does not fit its "
                    + in.remaining() + " bytes");
        }
        byte[] message = new byte[in.remaining()];
        in.get(message);
        return new DlsEcUpdate(UpdateWire.readDownload(message, length, compressed ? width : 0,
                compressed ? 0 : width, compressed));
    }

    private static int[] ids16(ByteBuffer in) {
        int count = in.getInt();
        if (count < 0 || 2L * count > in.remaining()) {
            throw new java.nio.BufferUnderflowException();
        }
        byte[] ids = new byte[2 * count];
        in.get(ids);
        return UpdateWire.readUpload(ids);
    }
}
