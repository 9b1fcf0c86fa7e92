package dev.fedbpt.engine.fedbpt;

import static dev.fedbpt.engine.method.GoldenBytes.readOnly;
import static dev.fedbpt.engine.method.GoldenBytes.written;

import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.method.GoldenBytes;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The bytes FedBPT's and FedAvg-BBT's payloads have in journals and on the wire, recorded once: never change them. */
class CmaesPayloadsGoldenTest {
    /** A search with no recorded decomposition (every search but pycma's). */
    private static final CmaesState PLAIN = new CmaesState(new double[] {0.5, -0.0}, 1.0,
            new double[][] {{1, 0}, {0, 1}}, new double[] {0, 0}, new double[] {0, 0}, 0);
    /** Pycma's: the covariance as last decomposed and the tells since. */
    private static final CmaesState PYCMA = new CmaesState(new double[] {Double.MIN_VALUE, 1e300}, Math.nextUp(0.6),
            new double[][] {{2, 0.1}, {0.1, 3}}, new double[] {-1, 1e-3}, new double[] {0.25, -0.0}, 9,
            new double[][] {{2, 0}, {0, 3}}, 3);
    private static final double[] FLOAT64 = {0.1, Double.NaN, -0.0};
    private static final double[] FLOAT32 = {0.1f, -2.5f};
    private static final double[] FLOAT16 = {0.5, -0.0, 65504, 5.9604644775390625E-8};
    private static final LocalResult FEDBPT = new LocalResult(3, 7, FLOAT64, FLOAT16, 0.125, 40, null);
    private static final LocalResult TOLD = new LocalResult(3, 2, FLOAT32, FLOAT32, Double.NaN, 1, null,
            new double[][] {FLOAT16, FLOAT64, {}});

    @TestFactory
    Stream<DynamicTest> goldenBytes() {
        return GoldenBytes.tests(new CmaesPayloads(),
                written("global state", new GlobalState(0, PLAIN), """
                        0100000000000000023fe000000000000080000000000000003ff000000000000000000002000000023ff00000000000
                        00000000000000000000000000000000003ff00000000000000000000200000000000000000000000000000000000000
                        020000000000000000000000000000000000000000000000000000000000
                        """),
                written("global state with pycma's decomposition", new GlobalState(12, PYCMA), """
                        010000000c0000000200000000000000017e37e43c8800759c3fe3333333333334000000020000000240000000000000
                        003fb999999999999a3fb999999999999a400800000000000000000002bff00000000000003f50624dd2f1a9fc000000
                        023fd0000000000000800000000000000000000000000000090100000002000000024000000000000000000000000000
                        00000000000000000000400800000000000000000003
                        """),
                written("FedBPT's upload: mean and sigmas only", FEDBPT, """
                        03000000030000000708000000033fb999999999999a7ff800000000000080000000000000000200000004380080007b
                        ff00013fc0000000000000000000280000
                        """),
                written("FedAvg-BBT's upload: told fitness values", TOLD, """
                        03000000030000000204000000023dcccccdc020000004000000023dcccccdc02000007ff80000000000000000000100
                        01000000030200000004380080007bff000108000000033fb999999999999a7ff8000000000000800000000000000002
                        00000000
                        """),
                written("upload with its local state", new LocalResult(1, 0, PYCMA.mean(), FLOAT32, -1, 8, PYCMA),
                        """
                        030000000100000000080000000200000000000000017e37e43c8800759c04000000023dcccccdc0200000bff0000000
                        00000000000008010000000200000000000000017e37e43c8800759c3fe3333333333334000000020000000240000000
                        000000003fb999999999999a3fb999999999999a400800000000000000000002bff00000000000003f50624dd2f1a9fc
                        000000023fd0000000000000800000000000000000000000000000090100000002000000024000000000000000000000
                        0000000000000000000000000040080000000000000000000300
                        """),
                written("a round's results", new RoundResults(List.of(FEDBPT, TOLD)), """
                        04000000020000004103000000030000000708000000033fb999999999999a7ff8000000000000800000000000000002
                        00000004380080007bff00013fc00000000000000000002800000000006403000000030000000204000000023dcccccd
                        c020000004000000023dcccccdc02000007ff8000000000000000000010001000000030200000004380080007bff0001
                        08000000033fb999999999999a7ff800000000000080000000000000000200000000
                        """),
                readOnly("upload at float64 only (journals before narrow uploads)",
                        new LocalResult(3, 7, new double[] {0.5, 1e-300}, new double[] {0.9}, 0.125, 40, null), """
                        020000000300000007000000023fe000000000000001a56e1fc2f8f359000000013feccccccccccccd3fc00000000000
                        000000002800
                        """),
                readOnly("upload at float64 with its local state (journals before narrow uploads)",
                        new LocalResult(1, 0, PLAIN.mean(), new double[] {1}, 2, 8, PLAIN), """
                        020000000100000000000000023fe00000000000008000000000000000000000013ff000000000000040000000000000
                        000000000801000000023fe000000000000080000000000000003ff000000000000000000002000000023ff000000000
                        0000000000000000000000000000000000003ff000000000000000000002000000000000000000000000000000000000
                        00020000000000000000000000000000000000000000000000000000000000
                        """));
    }
}
