package dev.fedbpt.engine.method;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * What a holder of round r-1's downlink receives instead of round r's: the method's
 * {@link FederatedMethod#downlinkUpdate} (FedBPT: the previous round's uploads, about 41 KB at the paper's setting
 * against the 2 MB state; DLS-EC: its compressed update), from which {@link FederatedMethod#replay} rebuilds the
 * downlink, and the SHA-256 of that downlink's encoding, so the holder can check what it rebuilt and take the whole
 * downlink when the check fails.
 *
 * <p>Encoding (big-endian): the round, the update's codec name (length-prefixed UTF-8), its codec's bytes
 * (length-prefixed), the 32 digest bytes. Its length is what the update costs on the wire.
 *
 * @param round          the round (0-based) whose downlink it rebuilds
 * @param update         the method's update payload
 * @param downlinkSha256 SHA-256 of the encoding of round {@code round}'s downlink
 */
public record RoundUpdate(int round, Payload update, byte[] downlinkSha256) {
    private static final int DIGEST_BYTES = 32;

    public RoundUpdate {
        if (round < 1) {
            throw new IllegalArgumentException("an update rebuilds round 1 or later (0-based), not " + round);
        }
        if (update == null) {
            throw new IllegalArgumentException("an update needs the method's update payload");
        }
        if (downlinkSha256 == null || downlinkSha256.length != DIGEST_BYTES) {
            throw new IllegalArgumentException("an update needs the 32-byte SHA-256 of the downlink it rebuilds");
        }
    }

    /** The update to {@code next}, round {@code round}'s downlink. */
    public static RoundUpdate of(int round, Payload update, Downlink next) {
        return new RoundUpdate(round, update, sha256(next));
    }

    /**
     * The encoded update to {@code next}, round {@code round}'s downlink, when it is smaller than the downlink's own
     * encoding ({@link #pays}); else null, and a holder is sent the whole downlink. {@code next} is encoded once, for
     * its size and its digest.
     */
    public static byte[] encodedIfSmaller(int round, Payload update, Downlink next) {
        byte[] whole = Methods.codecOf(next).encode(next);
        return pays(encodedSize(update), whole.length) ? new RoundUpdate(round, update, digest(whole)).encode() : null;
    }

    /** Whether an update of {@code updateBytes} is sent instead of a downlink of {@code downlinkBytes}. */
    public static boolean pays(long updateBytes, long downlinkBytes) {
        return updateBytes < downlinkBytes;
    }

    /** Bytes of an encoded round update carrying {@code update}. */
    public static long encodedSize(Payload update) {
        return frameSize(update.codec().getBytes(StandardCharsets.UTF_8).length, payloadSize(update));
    }

    /** The layout {@link #encode} writes: round, name length and name, body length and body, digest. */
    private static int frameSize(int nameBytes, long bodyBytes) {
        return Math.toIntExact(4 + 2 + nameBytes + 4 + bodyBytes + DIGEST_BYTES);
    }

    /** Bytes of {@code payload} as its codec writes them: what it costs on the wire. */
    public static long payloadSize(Payload payload) {
        return Methods.codecOf(payload).encode(payload).length;
    }

    public byte[] encode() {
        byte[] name = update.codec().getBytes(StandardCharsets.UTF_8);
        byte[] body = Methods.codecOf(update).encode(update);
        ByteBuffer out = ByteBuffer.allocate(frameSize(name.length, body.length));
        out.putInt(round).putShort((short) name.length).put(name).putInt(body.length).put(body).put(downlinkSha256);
        return out.array();
    }

    /** @throws IllegalArgumentException for bytes that are not a whole update (named in the message) */
    public static RoundUpdate decode(byte[] bytes) {
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            int round = in.getInt();
            byte[] name = new byte[in.getShort()];
            in.get(name);
            int length = in.getInt();
            if (length < 0 || length > in.remaining()) {
                throw new BufferUnderflowException();
            }
            byte[] body = new byte[length];
            in.get(body);
            byte[] digest = new byte[DIGEST_BYTES];
            in.get(digest);
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " bytes left after a round update");
            }
            return new RoundUpdate(round, Methods.codec(new String(name, StandardCharsets.UTF_8)).decode(body),
                    digest);
        } catch (BufferUnderflowException | NegativeArraySizeException e) {
            throw new IllegalArgumentException("a round update of " + bytes.length + " bytes is cut short", e);
        }
    }

    /**
     * Round {@code round}'s downlink rebuilt by {@code method} from {@code held} (round {@code round - 1}'s), or null
     * when what it rebuilt is not the downlink the server made (the digests differ, or {@code held} is not the
     * downlink the update follows: the holder takes the whole downlink).
     */
    public Downlink rebuild(FederatedMethod method, Downlink held) {
        try {
            Downlink next = method.replay(held, update);
            return next != null && Arrays.equals(sha256(next), downlinkSha256) ? next : null;
        } catch (IllegalArgumentException notFollowing) { // e.g. uploads answering another round
            return null;
        }
    }

    /** SHA-256 of the payload's encoding. */
    public static byte[] sha256(Payload payload) {
        return digest(Methods.codecOf(payload).encode(payload));
    }

    private static byte[] digest(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required on every Java platform", e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RoundUpdate u && round == u.round && update.equals(u.update)
                && Arrays.equals(downlinkSha256, u.downlinkSha256);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * round + update.hashCode()) + Arrays.hashCode(downlinkSha256);
    }

    @Override
    public String toString() {
        return "RoundUpdate[round=" + round + ", update=" + update.codec() + "]";
    }
}
