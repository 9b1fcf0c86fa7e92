package dev.fedbpt.engine.method;

/**
 * A method's global (server) state between rounds. Opaque to everything outside the method's package: the server
 * journals it through the method's {@link PayloadCodec}, hands it to {@link FederatedMethod#configure} and
 * {@link FederatedMethod#aggregate}, and reads nothing else from it. Implementations are immutable values.
 */
public interface MethodState extends Payload {
}
