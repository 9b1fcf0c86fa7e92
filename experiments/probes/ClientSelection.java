/*
 * Which clients FedBPT's server update took in each round still in a run's journal (docs/RESULTS.md, "Which clients
 * FedBPT's server listens to"), with each client's class counts. Runs made since metrics.jsonl lists its `clients`
 * need no journal; this reads the older ones. Reads a copy of the journal, never the run's own file:
 *
 *   cp RUN/journal.mv.db /tmp/copy.mv.db
 *   java -cp "$(cat cli/target/classpath.txt)" experiments/probes/ClientSelection.java RUN /tmp/copy.mv.db
 */
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import dev.fedbpt.actors.ConfiguredModels;
import dev.fedbpt.actors.ExperimentData;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.inference.ModelTokenizer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public class ClientSelection {
    record Upload(int clientId, double loss) {}

    public static void main(String[] args) throws Exception {
        Path run = Path.of(args[0]);
        ExperimentConfig config = ConfigLoader.load(run.resolve("config.conf"), List.of());
        try (ModelTokenizer tokenizer = new ConfiguredModels().tokenizer(config)) {
            List<LocalData> clients = ExperimentData.prepare(config, tokenizer).clients();
            for (int c = 0; c < clients.size(); c++) {
                int[] counts = new int[clients.get(c).numClasses()];
                Arrays.stream(clients.get(c).labels()).forEach(label -> counts[label]++);
                System.out.println("client " + c + " examples per class " + Arrays.toString(counts));
            }
        }
        Map<Integer, List<Upload>> byRound = new TreeMap<>();
        String url = "jdbc:h2:file:" + args[1].replace(".mv.db", "") + ";ACCESS_MODE_DATA=r";
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             ResultSet rows = connection.createStatement().executeQuery("SELECT \"event_ser_manifest\", "
                     + "\"event_payload\" FROM \"event_journal\" ORDER BY \"sequence_number\"")) {
            CBORMapper cbor = new CBORMapper();
            while (rows.next()) {
                if (rows.getString(1).endsWith("ResultAccepted")) {
                    JsonNode result = cbor.readTree(rows.getBytes(2)).get("result");
                    byRound.computeIfAbsent(result.get("round").asInt() + 1, r -> new ArrayList<>())
                            .add(new Upload(result.get("clientId").asInt(), result.get("loss").asDouble()));
                }
            }
        }
        // Eq. 6's server update takes the better half by (loss, client id), as ServerStrategy sorts them.
        byRound.forEach((round, uploads) -> {
            uploads.sort(Comparator.comparingDouble(Upload::loss).thenComparingInt(Upload::clientId));
            System.out.println("round " + round + " selected " + uploads.subList(0, uploads.size() / 2).stream()
                    .map(Upload::clientId).sorted().toList() + " of " + uploads.size());
        });
    }
}
