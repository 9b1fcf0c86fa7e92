package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.KindCodec;
import dev.fedbpt.engine.method.PayloadReader;
import dev.fedbpt.engine.method.PayloadWriter;

/**
 * The payload codec of DLS-EC, for the journal and the wire: big-endian, floats and doubles as their IEEE 754 bits,
 * so decoding gives back every bit. A kind byte, then the fields in record order, arrays and matrices as
 * {@link PayloadWriter} writes them. (The messages the paper counts are {@link UpdateWire}'s; this codec carries what
 * the framework stores and sends.)
 */
public final class DlsEcPayloads extends KindCodec {
    public static final String NAME = "dls-ec";
    private static final byte NO_UPDATE = 0;
    private static final byte COMPRESSED = 1;
    private static final byte FULL = 2;
    private static final int PERSONAL_BYTES = 4 + 4 + 8 + 4 + 1 + 4 + 4 + 4;

    public DlsEcPayloads() {
        super(NAME);
        kind(1, DlsEcState.class, (out, s) -> {
            out.putInt(s.round()).put(s.prompt());
            if (s.update() == null) {
                out.put(NO_UPDATE);
            } else if (s.update() instanceof Update.Compressed c) {
                out.put(COMPRESSED).put(c.tokens()).put(c.coefficients());
            } else {
                out.put(FULL).put(((Update.Full) s.update()).prompt());
            }
            out.putLong(s.screenedPositions()).putList(s.personal(), DlsEcPayloads::personal);
        }, DlsEcPayloads::state);
        kind(2, DlsEcDownlink.class, (out, d) -> out.putInt(d.round()).put(d.prompt()),
                in -> new DlsEcDownlink(in.getInt(), in.floatMatrix()));
        // search uploads stored before their ids travelled as the paper's 16 bits
        readOnly(3, in -> new SearchUpload(in.getInt(), in.getInt(), in.getDouble(), in.getInt(), in.ints()));
        kind(4, PersonalResult.class, DlsEcPayloads::personal, DlsEcPayloads::personal);
        kind(5, PersonalPrompt.class, (out, p) -> out.put(p.z()), in -> new PersonalPrompt(in.doubles()));
        kind(6, BbtState.class,
                (out, b) -> out.putInt(b.round()).putRow(b.z()).putList(b.personal(), DlsEcPayloads::personal),
                in -> new BbtState(in.getInt(), in.row(), in.list(PERSONAL_BYTES, DlsEcPayloads::personal)));
        kind(7, ZUpload.class,
                (out, u) -> out.putInt(u.round()).putInt(u.clientId()).putDouble(u.loss()).putInt(u.sampleCount())
                        .putRow(u.z()),
                in -> new ZUpload(in.getInt(), in.getInt(), in.getDouble(), in.getInt(), in.row()));
        kind(8, DlsEcUpdate.class, DlsEcPayloads::update, DlsEcPayloads::update);
        kind(9, SearchUpload.class,
                (out, u) -> out.putInt(u.round()).putInt(u.clientId()).putDouble(u.loss()).putInt(u.sampleCount())
                        .putInt(u.ids().length).put(UpdateWire.upload(u.ids())),
                in -> new SearchUpload(in.getInt(), in.getInt(), in.getDouble(), in.getInt(),
                        UpdateWire.readUpload(in.bytes(2L * in.getInt()))));
    }

    private static DlsEcState state(PayloadReader in) {
        int round = in.getInt();
        float[][] prompt = in.floatMatrix();
        byte updateKind = in.get();
        Update update = switch (updateKind) {
            case NO_UPDATE -> null;
            case COMPRESSED -> new Update.Compressed(in.intMatrix(), in.floatMatrix());
            case FULL -> new Update.Full(in.floatMatrix());
            default -> throw new IllegalArgumentException("unknown " + NAME + " update kind " + updateKind);
        };
        long screened = in.getLong();
        return new DlsEcState(round, prompt, update, screened, in.list(PERSONAL_BYTES, DlsEcPayloads::personal));
    }

    private static void personal(PayloadWriter out, PersonalResult r) {
        out.putInt(r.round()).putInt(r.clientId()).putDouble(r.loss()).putInt(r.sampleCount())
                .putBoolean(r.participant()).putInt(r.tunedCorrect()).putInt(r.globalCorrect()).putInt(r.testCount());
    }

    private static PersonalResult personal(PayloadReader in) {
        return new PersonalResult(in.getInt(), in.getInt(), in.getDouble(), in.getInt(), in.getBoolean(), in.getInt(),
                in.getInt(), in.getInt());
    }

    /** The paper's message after its shape: compressed or full, T, and Phi (compressed) or D (full). */
    private static void update(PayloadWriter out, DlsEcUpdate u) {
        byte[] message = UpdateWire.download(u.update());
        if (u.update() instanceof Update.Compressed c) {
            out.put(COMPRESSED).putInt(c.tokens().length).putInt(c.tokens()[0].length);
        } else {
            float[][] prompt = ((Update.Full) u.update()).prompt();
            out.put(FULL).putInt(prompt.length).putInt(prompt[0].length);
        }
        out.put(message);
    }

    private static DlsEcUpdate update(PayloadReader in) {
        boolean compressed = in.get() == COMPRESSED;
        int length = in.getInt();
        int width = in.getInt();
        if (length < 1 || width < 1 || (long) length * width * (compressed ? 4 : 2) != in.remaining()) {
            throw new IllegalArgumentException("a DLS-EC update of " + length + " x " + width + " does not fit its "
                    + in.remaining() + " bytes");
        }
        return new DlsEcUpdate(UpdateWire.readDownload(in.bytes(in.remaining()), length, compressed ? width : 0,
                compressed ? 0 : width, compressed));
    }
}
