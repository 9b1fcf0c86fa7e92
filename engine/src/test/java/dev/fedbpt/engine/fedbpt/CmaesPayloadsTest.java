package dev.fedbpt.engine.fedbpt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.cmaes.Pycma;
import dev.fedbpt.engine.method.Methods;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CmaesPayloadsTest {
    private static final CmaesPayloads CODEC = new CmaesPayloads();

    @Test
    void statesAndUploadsReadBackBitForBit() {
        CmaesState pycma = Pycma.initialState(new double[] {0.5, -0.0, Double.MIN_VALUE}, 0.7);
        GlobalState global = new GlobalState(12, pycma.withSigma(Math.nextUp(0.6)));
        assertEquals(global.cmaes(), ((GlobalState) CODEC.decode(CODEC.encode(global))).cmaes());
        assertEquals(12, ((GlobalState) CODEC.decode(CODEC.encode(global))).round());

        LocalResult bare = new LocalResult(3, 7, new double[] {Double.NaN, 1e308}, new double[] {0.9, 0.8, 0.7},
                0.125, 40, null);
        LocalResult back = (LocalResult) CODEC.decode(CODEC.encode(bare));
        assertTrue(Arrays.equals(bare.mean(), back.mean())); // NaN included
        assertArrayEquals(bare.sigmas(), back.sigmas());
        assertEquals(bare.loss(), back.loss());
        assertEquals(40, back.sampleCount());
        assertNull(back.localState());

        LocalResult full = new LocalResult(3, 7, new double[] {1, 2, 3}, new double[] {0.9}, 0.5, 4, pycma);
        assertEquals(pycma, ((LocalResult) CODEC.decode(CODEC.encode(full))).localState());
    }

    @Test
    void theRegistryFindsTheCodecByTheNameItsPayloadsCarry() {
        GlobalState global = new GlobalState(0, CmaesState.initial(new double[2], 1.0));
        assertEquals(CmaesPayloads.NAME, global.codec());
        assertSame(Methods.codec(CmaesPayloads.NAME).getClass(), Methods.codecOf(global).getClass());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> Methods.codec("nope"));
        assertTrue(unknown.getMessage().contains("known: cmaes"), unknown.getMessage());
    }

    @Test
    void damagedBytesAreRefusedWithTheReasonNotWithAHugeAllocation() {
        byte[] bytes = CODEC.encode(new GlobalState(1, CmaesState.initial(new double[4], 1.0)));
        IllegalArgumentException cut = assertThrows(IllegalArgumentException.class,
                () -> CODEC.decode(Arrays.copyOf(bytes, bytes.length - 3)));
        assertTrue(cut.getMessage().contains("cut short"), cut.getMessage());
        byte[] huge = bytes.clone();
        huge[5] = 0x7f; // the mean's length becomes about two billion
        assertThrows(IllegalArgumentException.class, () -> CODEC.decode(huge));
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CODEC.decode(longer)).getMessage()
                .contains("left after"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CODEC.decode(new byte[] {9})).getMessage()
                .contains("kind 9"));
    }
}
