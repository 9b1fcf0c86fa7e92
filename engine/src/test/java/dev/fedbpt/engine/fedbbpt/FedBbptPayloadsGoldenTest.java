package dev.fedbpt.engine.fedbbpt;

import static dev.fedbpt.engine.method.GoldenBytes.written;

import dev.fedbpt.engine.method.GoldenBytes;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The bytes Fed-BBPT's and BDPL's payloads have in journals and on the wire, recorded once: they must never change. */
class FedBbptPayloadsGoldenTest {
    private static final double ODD_NAN = Double.longBitsToDouble(0x7FF8_0000_0000_1234L);
    private static final double[][] THETA = {{0.1, 0.2, 0.7}, {1.0 / 3, 1.0 / 3, 1 - 2.0 / 3}};

    @TestFactory
    Stream<DynamicTest> goldenBytes() {
        return GoldenBytes.tests(new FedBbptPayloads(),
                written("state before the counts round", new FedBbptState(0, new int[0], new double[0][], 0), """
                        01000000000000000000000000000000000000000000000000
                        """),
                written("state", new FedBbptState(7, new int[] {11, 5, 900}, THETA, 123_456_789_012L), """
                        01000000070000001cbe991a14000000030000000b000000050000038400000002000000033fb999999999999a3fc999
                        999999999a3fe66666666666663fd55555555555553fd55555555555553fd5555555555556
                        """),
                written("theta upload",
                        new ThetaUpload(3, 2, 0.6931471805599453, 16, new double[][] {{-0.0, Double.MIN_VALUE, 1}},
                                30), """
                        0200000003000000023fe62e42fefa39ef000000100000001e0000000100000003800000000000000000000000000000
                        013ff0000000000000
                        """),
                written("theta upload with a NaN loss", new ThetaUpload(4, 0, ODD_NAN, 1, THETA, 0), """
                        0200000004000000007ff8000000001234000000010000000000000002000000033fb999999999999a3fc99999999999
                        9a3fe66666666666663fd55555555555553fd55555555555553fd5555555555556
                        """),
                written("counts upload",
                        new CountsUpload(0, 1, 8, new int[] {3, 9, 50264}, new int[] {4, 1, 2}, new int[] {3, 3, 9},
                                new int[] {3, 9, 3}, new int[] {1, 2, 1}), """
                        030000000000000001000000080000000300000003000000090000c45800000003000000040000000100000002000000
                        030000000300000003000000090000000300000003000000090000000300000003000000010000000200000001
                        """),
                written("counts upload of no counts",
                        new CountsUpload(0, 0, 1, new int[0], new int[0], new int[0], new int[0], new int[0]), """
                        030000000000000000000000010000000000000000000000000000000000000000
                        """),
                written("client memory",
                        new ClientOptimizerState(THETA, new double[][] {{1e-300, 2, 3}, {4, 5, 6}}, 31, 310, 0.25),
                        """
                        0400000002000000033fb999999999999a3fc999999999999a3fe66666666666663fd55555555555553fd55555555555
                        553fd5555555555556000000020000000301a56e1fc2f8f3594000000000000000400800000000000040100000000000
                        0040140000000000004018000000000000000000000000001f00000000000001363fd0000000000000
                        """),
                written("client memory without moments",
                        new ClientOptimizerState(new double[0][], new double[0][], 0, 8000, ODD_NAN), """
                        040000000000000000000000000000000000000000000000000000000000001f407ff8000000001234
                        """));
    }
}
