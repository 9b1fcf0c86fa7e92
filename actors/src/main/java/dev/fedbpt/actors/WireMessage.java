package dev.fedbpt.actors;

/**
 * Marks the messages that cross cluster members. They are serialised as Jackson CBOR by
 * {@code cluster.MeteredCborSerializer}, which also counts their bytes (the journal's events keep their own binding).
 */
public interface WireMessage {}
