package dev.fedbpt.persistence;

/** Marker for everything stored in the journal: bound to Akka's Jackson CBOR serializer in reference.conf. */
public interface CborSerializable {}
