package dev.fedbpt.engine.fedpeptao;

import static dev.fedbpt.engine.method.GoldenBytes.written;

import dev.fedbpt.engine.method.GoldenBytes;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The bytes FedPepTAO's payloads have in journals and on the wire, recorded once: they must never change. */
class PepTaoPayloadsGoldenTest {
    private static final PersonalAccuracy TESTED = new PersonalAccuracy(8, 1, 0.5, 40, true, 33, 50);
    private static final PersonalAccuracy HELD_OUT = new PersonalAccuracy(8, 4, Double.NaN, 1, false, 0, 0);

    @TestFactory
    Stream<DynamicTest> goldenBytes() {
        TreeMap<Integer, double[]> ci = new TreeMap<>();
        ci.put(4, new double[] {-0.0, 1e-300});
        ci.put(1, new double[] {0.1, 0.2});
        return GoldenBytes.tests(new PepTaoPayloads(),
                written("state before Algorithm 1 has chosen layers",
                        new PepTaoState(0, new float[] {0.5f, -0.0f}, null, 0, List.of(), Double.NaN, new double[0],
                                new double[0], null, 1e-3, new TreeMap<>(), List.of()), """
                        0100000000000000023f00000080000000ffffffff00000000000000007ff80000000000000000000000000000ffffff
                        ff3f50624dd2f1a9fc0000000000000000
                        """),
                written("state with scores, control variates and personal results",
                        new PepTaoState(7, new float[] {0.5f, -0.0f, Float.MIN_VALUE, 3f}, new int[] {0, 2}, 3,
                                List.of(new PepTaoState.DeviceScores(1, 40, new double[] {0.1, 0.2}),
                                        new PepTaoState.DeviceScores(4, 12, new double[0])),
                                0.75, new double[] {0.1, -0.2}, new double[] {0, 1}, new double[] {1e-3, -1e-3}, 0.01,
                                ci, List.of(TESTED, HELD_OUT)), """
                        0100000007000000043f0000008000000000000001404000000000000200000000000000020000000300000002000000
                        0100000028000000023fb999999999999a3fc999999999999a000000040000000c000000003fe8000000000000000000
                        023fb999999999999abfc999999999999a0000000200000000000000003ff0000000000000000000023f50624dd2f1a9
                        fcbf50624dd2f1a9fc3f847ae147ae147b0000000200000001000000023fb999999999999a3fc999999999999a000000
                        0400000002800000000000000001a56e1fc2f8f3590000000200000008000000013fe000000000000000000028010000
                        00210000003200000008000000047ff800000000000000000001000000000000000000
                        """),
                written("downlink before the layers are chosen", new PepTaoDownlink(0, null, 0, new float[] {1f, 2f}),
                        """
                        0200000000ffffffff00000000000000023f80000040000000
                        """),
                written("downlink", new PepTaoDownlink(5, new int[] {1, 3}, 2, new float[] {0.25f, -0.0f}), """
                        020000000500000002000000010000000300000002000000023e80000080000000
                        """),
                written("upload of a warm-up round",
                        new PepTaoUpload(1, 2, 0.6931471805599453, 16, 4, new float[] {1f, 2f, 3f},
                                new double[] {0.5, 0.25}), """
                        0300000001000000023fe62e42fefa39ef0000001000000004000000033f8000004000000040400000000000023fe000
                        00000000003fd0000000000000
                        """),
                written("upload", new PepTaoUpload(6, 0, 2.5, 1, 1, new float[0], new double[0]), """
                        030000000600000000400400000000000000000001000000010000000000000000
                        """),
                written("ratio upload", new RatioUpload(2, 3, 1.25, 9, 0.875), """
                        0600000002000000033ff4000000000000000000093fec000000000000
                        """),
                written("device memory with AdamW's moments",
                        new PersonalPrefix(4, new float[] {1f, -1f}, new float[] {0.1f, 0.2f},
                                new float[] {1e-8f, 0f}, 12), """
                        0400000004000000023f800000bf800000000000023dcccccd3e4ccccd00000002322bcc77000000000000000c
                        """),
                written("device memory without moments", new PersonalPrefix(0, new float[] {3f}, new float[0],
                        new float[0], 0), """
                        04000000000000000140400000000000000000000000000000
                        """),
                written("personal accuracy of a participant", TESTED, """
                        0500000008000000013fe000000000000000000028010000002100000032
                        """),
                written("personal accuracy of a held-out device", HELD_OUT, """
                        0500000008000000047ff800000000000000000001000000000000000000
                        """));
    }
}
