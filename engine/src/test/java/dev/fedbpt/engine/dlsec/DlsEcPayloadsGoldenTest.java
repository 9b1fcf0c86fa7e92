package dev.fedbpt.engine.dlsec;

import static dev.fedbpt.engine.method.GoldenBytes.readOnly;
import static dev.fedbpt.engine.method.GoldenBytes.written;

import dev.fedbpt.engine.method.GoldenBytes;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The bytes DLS-EC's payloads have in journals and on the wire, recorded once: they must never change. */
class DlsEcPayloadsGoldenTest {
    private static final float[][] PROMPT = {
            {0.5f, -0.0f, Float.MIN_VALUE}, {1e30f, -2f, Float.intBitsToFloat(0x7fc01234)}};
    private static final PersonalResult TUNED = new PersonalResult(9, 2, 0.125, 40, true, 31, 28, 50);
    private static final PersonalResult HELD_OUT = new PersonalResult(9, 5, Double.NaN, 1, false, 0, 7, 0);

    @TestFactory
    Stream<DynamicTest> goldenBytes() {
        return GoldenBytes.tests(new DlsEcPayloads(),
                written("state before the first round: no update, no personal results",
                        new DlsEcState(0, PROMPT, null, 0, List.of()), """
                        010000000000000002000000033f00000080000000000000017149f2cac00000007fc012340000000000000000000000
                        0000
                        """),
                written("state with a compressed update and personal results",
                        new DlsEcState(3, PROMPT, new Update.Compressed(new int[][] {{7, 50264}, {0, 65534}},
                                new float[][] {{0.25f, -1.5f}, {0f, 65504f}}), 12, List.of(TUNED, HELD_OUT)), """
                        010000000300000002000000033f00000080000000000000017149f2cac00000007fc012340100000002000000020000
                        00070000c458000000000000fffe00000002000000023e800000bfc0000000000000477fe000000000000000000c0000
                        000200000009000000023fc000000000000000000028010000001f0000001c0000003200000009000000057ff8000000
                        0000000000000100000000000000000700000000
                        """),
                written("state with a full update",
                        new DlsEcState(4, PROMPT, new Update.Full(new float[][] {{0.5f}, {-3f}}), 1L << 40,
                                List.of()), """
                        010000000400000002000000033f00000080000000000000017149f2cac00000007fc012340200000002000000013f00
                        0000c0400000000001000000000000000000
                        """),
                written("downlink", new DlsEcDownlink(5, PROMPT), """
                        020000000500000002000000033f00000080000000000000017149f2cac00000007fc01234
                        """),
                written("downlink of an empty prompt", new DlsEcDownlink(0, new float[0][]), """
                        02000000000000000000000000
                        """),
                written("downlink update, compressed", new DlsEcUpdate(new Update.Compressed(
                        new int[][] {{7, 50264}, {0, 65534}}, new float[][] {{0.25f, -1.5f}, {-0.0f, 65504f}})), """
                        080100000002000000020007c4583400be000000fffe80007bff
                        """),
                written("downlink update, full", new DlsEcUpdate(new Update.Full(
                        new float[][] {{0.5f, -0.0f, 5.9604645E-8f}, {65504f, -2f, 1f}})), """
                        080200000002000000033800800000017bffc0003c00
                        """),
                written("search upload with skipped positions",
                        new SearchUpload(2, 1, 0.6931471805599453, 16, new int[] {5, SearchUpload.SKIP, 50264, 0,
                                65534}), """
                        0900000002000000013fe62e42fefa39ef00000010000000050005ffffc4580000fffe
                        """),
                written("search upload of no positions", new SearchUpload(0, 0, 0, 1, new int[0]), """
                        09000000000000000000000000000000000000000100000000
                        """),
                readOnly("search upload with 32-bit ids (journals before 16-bit ids)",
                        new SearchUpload(2, 1, 0.25, 16, new int[] {5, SearchUpload.SKIP, 50264}), """
                        0300000002000000013fd0000000000000000000100000000300000005ffffffff0000c458
                        """),
                written("personal result of a participant", TUNED, """
                        0400000009000000023fc000000000000000000028010000001f0000001c00000032
                        """),
                written("personal result of a held-out client", HELD_OUT, """
                        0400000009000000057ff80000000000000000000100000000000000000700000000
                        """),
                written("personal prompt", new PersonalPrompt(new double[] {0.1, -0.0,
                        Double.longBitsToDouble(0x7ff8_0000_0000_1234L)}), """
                        05000000033fb999999999999a80000000000000007ff8000000001234
                        """),
                written("personal prompt, empty z", new PersonalPrompt(new double[0]), """
                        0500000000
                        """),
                written("BBT state before the first round", new BbtState(0, new float[] {0f, 0f, 0f}, List.of()), """
                        0600000000000000010000000300000000000000000000000000000000
                        """),
                written("BBT state with personal results",
                        new BbtState(6, new float[] {0.5f, -0.0f, 65504f}, List.of(TUNED, HELD_OUT)), """
                        060000000600000001000000033f00000080000000477fe0000000000200000009000000023fc0000000000000000000
                        28010000001f0000001c0000003200000009000000057ff80000000000000000000100000000000000000700000000
                        """),
                written("z upload", new ZUpload(3, 2, 1.5, 8, new float[] {0.5f, -0.25f, 1e-8f}), """
                        0700000003000000023ff80000000000000000000800000001000000033f000000be800000322bcc77
                        """));
    }
}
