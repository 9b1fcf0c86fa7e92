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
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.cmaes.Pycma;
import dev.fedbpt.engine.fedbpt.GlobalState;
import dev.fedbpt.persistence.RoundIncidents;
import dev.fedbpt.persistence.RoundSummary;
import dev.fedbpt.persistence.ServerState;
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
    void aPycmaServerStateKeepsItsDecompositionAndAnOlderStateRecoversWithout() throws Exception {
        CmaesState pycma = Pycma.initialState(new double[] {0.5, -1, 2}, 0.7);
        ServerState state = new ServerState("hash", new GlobalState(3, pycma.withSigma(0.6)), null, List.of(), 0.5,
                false);
        Serialization serialization = SerializationExtension.get(Adapter.toClassic(KIT.system()));
        Serializer serializer = serialization.findSerializerFor(state);
        String manifest = Serializers.manifestFor(serializer, state);
        byte[] stored = serialization.serialize(state).get();
        ServerState back = (ServerState) serialization.deserialize(stored, serializer.identifier(), manifest).get();
        assertEquals(state.global(), back.global());
        assertEquals(3, back.global().cmaes().decomposed().length);

        CBORMapper cbor = new CBORMapper();
        ObjectNode older = (ObjectNode) cbor.readTree(stored);
        ObjectNode cmaes = (ObjectNode) older.get("global").get("cmaes");
        cmaes.remove("decomposed");
        cmaes.remove("tellsSinceDecomposition");
        ServerState recovered = (ServerState) serialization.deserialize(cbor.writeValueAsBytes(older),
                serializer.identifier(), manifest).get();
        assertEquals(null, recovered.global().cmaes().decomposed());
        assertEquals(0, recovered.global().cmaes().tellsSinceDecomposition());
        assertEquals(state.global().cmaes().sigma(), recovered.global().cmaes().sigma());
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
