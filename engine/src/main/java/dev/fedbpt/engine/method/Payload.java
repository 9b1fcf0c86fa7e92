package dev.fedbpt.engine.method;

/**
 * Anything a method hands the framework to store or send: its state, a downlink, an upload, a client's memory. The
 * framework encodes it only through {@link Methods#codecOf}, by the codec name it carries.
 */
public interface Payload {
    /** The name under which {@link Methods} finds the codec that encodes this payload. */
    String codec();
}
