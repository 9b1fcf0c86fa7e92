package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import dev.fedbpt.engine.fedbpt.Digests;
import dev.fedbpt.engine.fedbpt.GlobalState;
import dev.fedbpt.engine.fedbpt.LocalResult;
import dev.fedbpt.persistence.Confusion;
import dev.fedbpt.persistence.JournalException;
import dev.fedbpt.persistence.JournalSchema;
import dev.fedbpt.persistence.JournalSettings;
import dev.fedbpt.persistence.OpenRound;
import dev.fedbpt.persistence.RoundIncidents;
import dev.fedbpt.persistence.RoundSummary;
import dev.fedbpt.persistence.ServerEvent;
import dev.fedbpt.persistence.ServerState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the journal stores reads back exactly: a method's payloads through its codec, and records written before a
 * field existed; a journal of an older format is refused before anything is written.
 */
class StoredRoundCompatibilityTest {
    private static final ActorTestKit KIT = ActorTestKit.create();

    @AfterAll
    static void stop() {
        KIT.shutdownTestKit();
    }

    private static Object roundTrip(Object value) {
        Serialization serialization = SerializationExtension.get(Adapter.toClassic(KIT.system()));
        Serializer serializer = serialization.findSerializerFor(value);
        String manifest = Serializers.manifestFor(serializer, value);
        byte[] stored = serialization.serialize(value).get();
        return serialization.deserialize(stored, serializer.identifier(), manifest).get();
    }

    @Test
    void aServerStatesPayloadsReadBackBitForBitPycmaDecompositionIncluded() {
        CmaesState pycma = Pycma.initialState(new double[] {0.5, -1, 2}, 0.7);
        CmaesState local = new CmaesState(new double[] {1e-300, -0.0, Double.MIN_VALUE}, 0.3,
                pycma.covariance(), new double[] {1, 2, 3}, new double[] {-1, -2, -3}, 9);
        OpenRound open = OpenRound.opened(4, 2, new int[] {0, 3})
                .withAccepted(new LocalResult(3, 3, new double[] {0.1, 0.2, 0.3}, new double[] {0.9, 0.8}, 0.25, 8,
                        local), null);
        ServerState state = new ServerState("hash", new GlobalState(3, pycma.withSigma(0.6)), open, List.of(), 0.5,
                false, List.of(), Map.of(), null, null);
        ServerState back = (ServerState) roundTrip(state);
        assertEquals(state.global(), back.global()); // CmaesState equality is bitwise
        assertEquals(3, ((GlobalState) back.global()).cmaes().decomposed().length);
        LocalResult result = (LocalResult) back.open().accepted().get(0);
        assertEquals(local, result.localState());
        assertEquals(Digests.sha256(new double[] {0.1, 0.2, 0.3}), Digests.sha256(result.mean()));
        assertEquals(0.25, result.loss());
        assertEquals(3, result.clientId());

        ServerEvent.ResultAccepted event = new ServerEvent.ResultAccepted(3, new LocalResult(3, 1,
                new double[] {Math.PI}, new double[] {1}, 0.5, 4, null), null);
        ServerEvent.ResultAccepted eventBack = (ServerEvent.ResultAccepted) roundTrip(event);
        assertEquals(Math.PI, ((LocalResult) eventBack.upload()).mean()[0]);
        assertEquals(null, ((LocalResult) eventBack.upload()).localState());
    }

    @Test
    void anEvaluationsConfusionReadsBack() {
        Confusion confusion = Confusion.of(new long[][] {{40, 2}, {5, 33}});
        ServerEvent.PromptEvaluated event = new ServerEvent.PromptEvaluated(0, 0.9125, Map.of("f1", 0.9), confusion,
                61_500L);
        assertEquals(event, roundTrip(event));
        ServerState state = ServerState.empty().apply(event, null);
        assertEquals(confusion, ((ServerState) roundTrip(state)).zeroShotConfusion());
    }

    @Test
    void anEvaluationStoredBeforeItsTimeWasKeptReadsBackUntimed() throws Exception {
        ServerEvent.PromptEvaluated event = new ServerEvent.PromptEvaluated(2, 0.75, Map.of(), Confusion.EMPTY, 900L);
        Serialization serialization = SerializationExtension.get(Adapter.toClassic(KIT.system()));
        Serializer serializer = serialization.findSerializerFor(event);
        CBORMapper cbor = new CBORMapper();
        ObjectNode older = (ObjectNode) cbor.readTree(serialization.serialize(event).get());
        older.remove("wallMs");
        ServerEvent.PromptEvaluated recovered = (ServerEvent.PromptEvaluated) serialization.deserialize(
                cbor.writeValueAsBytes(older), serializer.identifier(), Serializers.manifestFor(serializer, event))
                .get();
        assertEquals(new ServerEvent.PromptEvaluated(2, 0.75, Map.of(), Confusion.EMPTY, null), recovered);
    }

    @Test
    void aRoundStoredBeforeClientUploadsWereKeptRecoversWithNone() throws Exception {
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("sigma", 0.9);
        RoundSummary summary = new RoundSummary(3, 1, 4, 2, 2, 0.5, metrics, null, 10, 20, 30, 40,
                RoundIncidents.NONE, "ab12",
                List.of(new RoundSummary.ClientUpload(2, 0.6, 8), new RoundSummary.ClientUpload(1, 0.4, 8)), null,
                Confusion.of(new long[][] {{40, 2}, {5, 33}}), 61_500L);
        assertEquals(List.of(1, 2), summary.clients().stream().map(RoundSummary.ClientUpload::clientId).toList());

        Serialization serialization = SerializationExtension.get(Adapter.toClassic(KIT.system()));
        Serializer serializer = serialization.findSerializerFor(summary);
        String manifest = Serializers.manifestFor(serializer, summary);
        byte[] stored = serialization.serialize(summary).get();
        assertEquals(summary, serialization.deserialize(stored, serializer.identifier(), manifest).get());

        CBORMapper cbor = new CBORMapper();
        ObjectNode older = (ObjectNode) cbor.readTree(stored);
        older.remove("clients");
        older.remove("testConfusion");
        older.remove("testWallMs");
        RoundSummary recovered = (RoundSummary) serialization.deserialize(cbor.writeValueAsBytes(older),
                serializer.identifier(), manifest).get();
        assertEquals(List.of(), recovered.clients());
        assertEquals(Confusion.EMPTY, recovered.testConfusion());
        assertEquals(null, recovered.testWallMs(), "untimed, not timed at 0 ms");
        assertEquals(summary.promptSha256(), recovered.promptSha256());
        assertEquals(summary.meanClientLoss(), recovered.meanClientLoss());
        assertEquals(metrics, recovered.metrics());
    }

    @Test
    void aJournalOfTheFormatBeforeMethodPlugInsIsRefusedUntouched(@TempDir Path run) throws Exception {
        // The first format's journal: fedbpt_run recorded the configuration's hash and no format.
        try (Connection connection = DriverManager.getConnection(JournalSettings.jdbcUrl(run), "sa", "");
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE \"fedbpt_run\" (\"config_hash\" VARCHAR(64) NOT NULL)");
            statement.execute("INSERT INTO \"fedbpt_run\" (\"config_hash\") VALUES ('abc')");
        }
        Path database = JournalSettings.databaseFile(run);
        long before = Files.size(database);
        JournalException refused = assertThrows(JournalException.class, () -> JournalSchema.open(run, "abc"));
        assertTrue(refused.getMessage().contains("journal format 1"), refused.getMessage());
        assertTrue(refused.getMessage().contains("reads format " + JournalSchema.FORMAT), refused.getMessage());
        assertEquals(before, Files.size(database));
        try (Connection connection = DriverManager.getConnection(JournalSettings.jdbcUrl(run), "sa", "")) {
            assertFalse(connection.getMetaData().getTables(null, null, "event_journal", null).next(),
                    "nothing was created");
        }

        Path fresh = run.resolve("fresh");
        JournalSchema.open(fresh, "abc");
        JournalSchema.open(fresh, "abc"); // a journal of this format opens again
    }
}
