package dev.fedbpt.actors.cluster;

import akka.actor.ExtendedActorSystem;
import akka.serialization.SerializerWithStringManifest;
import akka.serialization.jackson.JacksonCborSerializer;

/**
 * Jackson CBOR for the messages that cross members ({@code WireMessage}), counting the bytes each kind of message
 * puts on the wire in {@link WireTraffic}. Akka serialises a message only when it leaves the JVM, so the counts are
 * exactly the traffic between members (payloads, without Artery's few bytes of envelope).
 */
public final class MeteredCborSerializer extends SerializerWithStringManifest {
    private final JacksonCborSerializer cbor;
    private final WireTraffic traffic;

    public MeteredCborSerializer(ExtendedActorSystem system) {
        this.cbor = new JacksonCborSerializer(system, "jackson-cbor");
        this.traffic = WireTraffic.ID.get(system);
    }

    @Override
    public int identifier() {
        return 4_711_001;
    }

    @Override
    public String manifest(Object message) {
        return cbor.manifest(message);
    }

    @Override
    public byte[] toBinary(Object message) {
        byte[] bytes = cbor.toBinary(message);
        traffic.count(message.getClass(), bytes.length);
        return bytes;
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
        return cbor.fromBinary(bytes, manifest);
    }
}
