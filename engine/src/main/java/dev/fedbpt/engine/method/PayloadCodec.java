package dev.fedbpt.engine.method;

/**
 * How a method's payloads are written for the journal and the wire. Encodings are self-describing (a payload is
 * decoded from its bytes alone, with no configuration) and exact: decode(encode(p)) equals p bit for bit, which is
 * what resume and cluster runs rely on. The byte count of an encoding is what the payload costs on the wire.
 */
public interface PayloadCodec {
    /** The name payloads carry in {@link Payload#codec()}; unique among the registered codecs. */
    String name();

    byte[] encode(Payload payload);

    /** @throws IllegalArgumentException for bytes this codec did not write (named in the message) */
    Payload decode(byte[] bytes);
}
