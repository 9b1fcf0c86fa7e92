package dev.fedbpt.engine.gradient;

import static dev.fedbpt.engine.method.GoldenBytes.written;

import dev.fedbpt.engine.method.GoldenBytes;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The bytes the gradient methods' payloads have in journals and on the wire, recorded once: they must never change. */
class GradientPayloadsGoldenTest {
    @TestFactory
    Stream<DynamicTest> goldenBytes() {
        return GoldenBytes.tests(new GradientPayloads(),
                written("state", new PromptState(0, new float[] {0f, -0.0f, Float.MIN_VALUE, 1e30f}), """
                        010000000000000001000000040000000080000000000000017149f2ca
                        """),
                written("state with a NaN payload", new PromptState(41, new float[] {Float.intBitsToFloat(0x7fc01234)}),
                        """
                        010000002900000001000000017fc01234
                        """),
                written("upload", new ParamsUpload(3, 7, 0.6931471805599453, 32, new float[] {1f, -2.5f}), """
                        0200000003000000073fe62e42fefa39ef0000002000000001000000023f800000c0200000
                        """),
                written("upload with a NaN loss", new ParamsUpload(0, 0, Double.NaN, 1, new float[] {0.1f}), """
                        0200000000000000007ff80000000000000000000100000001000000013dcccccd
                        """));
    }
}
