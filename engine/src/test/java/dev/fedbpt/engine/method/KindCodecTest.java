package dev.fedbpt.engine.method;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The skeleton the method codecs share: kinds declared once, bytes grown as written, lengths checked when read. */
class KindCodecTest {
    private record Big(double[][] matrix, float[] values, List<int[]> ids) implements Payload {
        @Override
        public String codec() {
            return "test";
        }
    }

    private record Small(int n) implements Payload {
        @Override
        public String codec() {
            return "test";
        }
    }

    private static final class TestCodec extends KindCodec {
        TestCodec() {
            super("test");
            kind(1, Big.class, (out, b) -> out.put(b.matrix()).put(b.values()).putList(b.ids(), PayloadWriter::put),
                    in -> new Big(in.matrix(), in.floats(), in.list(4, PayloadReader::ints)));
            kind(2, Small.class, (out, s) -> out.putInt(s.n()), in -> new Small(in.getInt()));
            readOnly(3, in -> new Small(in.get()));
        }
    }

    private static final TestCodec CODEC = new TestCodec();

    @Test
    void aPayloadLargerThanTheFirstBufferIsWrittenWholeAndReadBack() {
        SplittableRandom random = new SplittableRandom(7);
        double[][] matrix = new double[300][40];
        for (double[] row : matrix) {
            for (int j = 0; j < row.length; j++) {
                row[j] = random.nextDouble();
            }
        }
        float[] values = new float[1000];
        for (int i = 0; i < values.length; i++) {
            values[i] = (float) random.nextGaussian();
        }
        Big big = new Big(matrix, values, List.of(new int[] {1, 2, 3}, new int[0]));
        byte[] bytes = CODEC.encode(big);
        assertEquals(1 + 8 + 8 * 300 * 40 + 4 + 4 * 1000 + 4 + 16 + 4, bytes.length);
        GoldenBytes.assertSameValue(big, CODEC.decode(bytes), "big");
    }

    @Test
    void aKindOnlyReadIsReadButNotWritten() {
        assertEquals(new Small(7), CODEC.decode(new byte[] {3, 7}));
        assertArrayEquals(new byte[] {2, 0, 0, 0, 7}, CODEC.encode(new Small(7)));
    }

    @Test
    void aKindDeclaredTwiceOrOutOfAByteIsRefused() {
        assertThrows(IllegalStateException.class, () -> new KindCodec("twice") {
            {
                kind(1, Small.class, (out, s) -> out.putInt(s.n()), in -> new Small(in.getInt()));
                readOnly(1, in -> new Small(in.get()));
            }
        });
        assertThrows(IllegalStateException.class, () -> new KindCodec("wide") {
            {
                readOnly(300, in -> new Small(in.get()));
            }
        });
    }

    @Test
    void lengthsAndShapesClaimingMoreThanIsLeftAreRefusedBeforeAnythingIsAllocated() {
        for (int[] shape : new int[][] {{Integer.MAX_VALUE, Integer.MAX_VALUE}, {Integer.MAX_VALUE, 0}, {-1, 1},
                {1, -1}}) {
            byte[] bytes = ByteBuffer.allocate(1 + 8).put((byte) 1).putInt(shape[0]).putInt(shape[1]).array();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CODEC.decode(bytes));
            assertTrue(e.getMessage().contains("cut short"), e.getMessage());
        }
        byte[] values = ByteBuffer.allocate(1 + 8 + 4).put((byte) 1).putInt(0).putInt(0).putInt(Integer.MAX_VALUE)
                .array();
        assertThrows(IllegalArgumentException.class, () -> CODEC.decode(values));
        byte[] list = ByteBuffer.allocate(1 + 8 + 4 + 4).put((byte) 1).putInt(0).putInt(0).putInt(0)
                .putInt(Integer.MAX_VALUE).array();
        assertThrows(IllegalArgumentException.class, () -> CODEC.decode(list));
    }

    @Test
    void aRaggedMatrixOrOneOfEmptyRowsIsNotWritten() {
        for (double[][] matrix : new double[][][] {{{1, 2}, {3}}, {{}}, {{1}, null}}) {
            assertThrows(IllegalArgumentException.class,
                    () -> CODEC.encode(new Big(matrix, new float[0], List.of())));
        }
    }
}
