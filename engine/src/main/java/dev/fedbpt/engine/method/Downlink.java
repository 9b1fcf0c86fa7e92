package dev.fedbpt.engine.method;

/**
 * What a sampled client receives for a round ({@link FederatedMethod#configure}). Opaque outside the method's
 * package; it crosses the wire through the method's {@link PayloadCodec}. One instance may go to every client of a
 * round in one JVM (a method may cache work per instance, e.g. a decomposition every client would repeat).
 */
public interface Downlink extends Payload {
}
