package dev.fedbpt.engine.fedbbpt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fedbpt.engine.method.Payload;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FedBbptPayloadsTest {
    private static final FedBbptPayloads CODEC = new FedBbptPayloads();
    private static final double ODD_NAN = Double.longBitsToDouble(0x7FF8_0000_0000_1234L);

    static List<Payload> everyKind() {
        double[][] theta = {{0.1, 0.2, 0.7}, {1.0 / 3, 1.0 / 3, 1 - 2.0 / 3}};
        return List.of(
                new FedBbptState(0, new int[0], new double[0][], 0),
                new FedBbptState(7, new int[] {11, 5, 900}, theta, 123_456_789_012L),
                new ThetaUpload(3, 2, 0.6931471805599453, 16, new double[][] {{-0.0, Double.MIN_VALUE, 1}}, 30),
                new ThetaUpload(4, 0, ODD_NAN, 1, theta, 0),
                new CountsUpload(0, 1, 8, new int[] {3, 9, 50264}, new int[] {4, 1, 2}, new int[] {3, 3, 9},
                        new int[] {3, 9, 3}, new int[] {1, 2, 1}),
                new CountsUpload(0, 0, 1, new int[0], new int[0], new int[0], new int[0], new int[0]),
                new ClientOptimizerState(theta, new double[][] {{1e-300, 2, 3}, {4, 5, 6}}, 31, 310, 0.25),
                new ClientOptimizerState(new double[0][], new double[0][], 0, 8000, ODD_NAN));
    }

    @Test
    void everyKindRoundTripsBitForBit() {
        for (Payload p : everyKind()) {
            byte[] bytes = CODEC.encode(p);
            Payload back = CODEC.decode(bytes);
            assertEquals(p, back);
            assertArrayEquals(bytes, CODEC.encode(back), "bits of " + p);
            assertEquals(FedBbptPayloads.NAME, back.codec());
        }
        ThetaUpload nan = (ThetaUpload) CODEC.decode(CODEC.encode(everyKind().get(3)));
        assertEquals(Double.doubleToRawLongBits(ODD_NAN), Double.doubleToRawLongBits(nan.loss()));
        ThetaUpload zero = (ThetaUpload) CODEC.decode(CODEC.encode(everyKind().get(2)));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(zero.theta()[0][0]));
    }

    @Test
    void damagedBytesAreRefused() {
        for (Payload p : everyKind()) {
            byte[] bytes = CODEC.encode(p);
            for (int cut = 0; cut < bytes.length; cut++) {
                byte[] shorter = Arrays.copyOf(bytes, cut);
                assertThrows(IllegalArgumentException.class, () -> CODEC.decode(shorter), p + " cut at " + cut);
            }
            byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
            assertThrows(IllegalArgumentException.class, () -> CODEC.decode(longer));
            byte[] unknown = bytes.clone();
            unknown[0] = 9;
            assertThrows(IllegalArgumentException.class, () -> CODEC.decode(unknown));
        }
        assertThrows(IllegalArgumentException.class, () -> CODEC.decode(null));
    }

    @Test
    void lengthsThatClaimMoreThanIsThereAllocateNothing() {
        // a state claiming Integer.MAX_VALUE candidates
        byte[] candidates = ByteBuffer.allocate(1 + 4 + 8 + 4).put((byte) 1).putInt(0).putLong(0)
                .putInt(Integer.MAX_VALUE).array();
        assertThrows(IllegalArgumentException.class, () -> CODEC.decode(candidates));
        // an upload claiming a 2^31-1 x 2^31-1 theta, and one claiming millions of empty rows
        for (int cols : new int[] {Integer.MAX_VALUE, 0, -1}) {
            byte[] theta = ByteBuffer.allocate(1 + 4 + 4 + 8 + 4 + 4 + 8).put((byte) 2).putInt(0).putInt(0)
                    .putDouble(0).putInt(1).putInt(0).putInt(Integer.MAX_VALUE).putInt(cols).array();
            assertThrows(IllegalArgumentException.class, () -> CODEC.decode(theta));
        }
        // counts out of order or not positive are not counts this codec wrote
        byte[] counts = CODEC.encode(everyKind().get(4));
        ByteBuffer.wrap(counts).putInt(1 + 12 + 4, 10); // tokens 10, 9, ...: not increasing
        assertThrows(IllegalArgumentException.class, () -> CODEC.decode(counts));
    }

    @Test
    void foreignPayloadsAreNotEncoded() {
        assertThrows(IllegalArgumentException.class, () -> CODEC.encode(() -> "other"));
        assertThrows(IllegalArgumentException.class, () -> CODEC.encode(
                new ThetaUpload(0, 0, 0, 1, new double[][] {{1, 0}, {1}}, 0))); // ragged
    }
}
