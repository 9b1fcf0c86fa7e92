package dev.fedbpt.engine.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** What every registered codec refuses, and in the same words: another method's payload, a kind it never writes. */
class PayloadCodecsTest {

    private record Foreign() implements Payload {
        @Override
        public String codec() {
            return "foreign";
        }
    }

    @Test
    void everyCodecRefusesAPayloadOfAnotherMethodNamingItselfAndThePayload() {
        assertFalse(Methods.codecNames().isEmpty());
        for (String name : Methods.codecNames()) {
            PayloadCodec codec = Methods.codec(name);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> codec.encode(new Foreign()), name);
            assertEquals("the " + name + " codec does not encode " + Foreign.class.getName(), e.getMessage());
        }
    }

    @Test
    void everyCodecRefusesAKindByteItNeverWrites() {
        for (String name : Methods.codecNames()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Methods.codec(name).decode(new byte[] {99}), name);
            assertEquals("unknown " + name + " payload kind 99", e.getMessage());
        }
    }
}
