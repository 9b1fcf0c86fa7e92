package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.typed.javadsl.Adapter;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializer;
import akka.serialization.Serializers;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import dev.fedbpt.persistence.RoundIncidents;
import dev.fedbpt.persistence.RoundSummary;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Snapshots written by an older fedbpt still recover: a field added to a stored record reads as empty. */
class StoredRoundCompatibilityTest {
    private static final ActorTestKit KIT = ActorTestKit.create();

    @AfterAll
    static void stop() {
        KIT.shutdownTestKit();
    }

    @Test
    void aRoundStoredBeforeClientUploadsWereKeptRecoversWithNone() throws Exception {
        RoundSummary summary = new RoundSummary(3, 1, 4, 2, 2, 0.5, 0.9, null, 10, 20, 30, 40, RoundIncidents.NONE,
                "ab12", List.of(new RoundSummary.ClientUpload(2, 0.6, 8), new RoundSummary.ClientUpload(1, 0.4, 8)));
        assertEquals(List.of(1, 2), summary.clients().stream().map(RoundSummary.ClientUpload::clientId).toList());

        Serialization serialization = SerializationExtension.get(Adapter.toClassic(KIT.system()));
        Serializer serializer = serialization.findSerializerFor(summary);
        String manifest = Serializers.manifestFor(serializer, summary);
        byte[] stored = serialization.serialize(summary).get();
        assertEquals(summary, serialization.deserialize(stored, serializer.identifier(), manifest).get());

        CBORMapper cbor = new CBORMapper();
        ObjectNode older = (ObjectNode) cbor.readTree(stored);
        older.remove("clients");
        RoundSummary recovered = (RoundSummary) serialization.deserialize(cbor.writeValueAsBytes(older),
                serializer.identifier(), manifest).get();
        assertEquals(List.of(), recovered.clients());
        assertEquals(summary.globalMeanSha256(), recovered.globalMeanSha256());
        assertEquals(summary.meanClientLoss(), recovered.meanClientLoss());
    }
}
