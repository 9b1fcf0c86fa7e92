/*
 * Test recall per class of a finished run's prompt and of the zero-shot prompt (docs/RESULTS.md, the per-class table
 * under "Which clients FedBPT's server listens to"). The prompt is the global mean of the journal's newest snapshot;
 * it says whether that is the final one (its hash equals result.json's). Scores the whole test set twice: minutes on
 * 2 cores. Reads a copy of the journal, never the run's own file:
 *
 *   cp RUN/journal.mv.db /tmp/copy.mv.db
 *   java -Dai.djl.offline=true -cp "$(cat cli/target/classpath.txt)" experiments/probes/ClassRecall.java RUN /tmp/copy.mv.db
 */
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import dev.fedbpt.actors.ConfiguredModels;
import dev.fedbpt.actors.Evaluator;
import dev.fedbpt.actors.ExperimentData;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.TaskMetric;
import dev.fedbpt.engine.fedbpt.Digests;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.inference.ScoringModel;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

public class ClassRecall {
    public static void main(String[] args) throws Exception {
        Path run = Path.of(args[0]);
        ExperimentConfig config = ConfigLoader.load(run.resolve("config.conf"), List.of());
        double[] z = newestSnapshotMean(args[1]);
        JsonNode result = new ObjectMapper().readTree(run.resolve("result.json").toFile());
        System.out.println("newest snapshot holds the final prompt: "
                + Digests.sha256(z).equals(result.get("global_mean_sha256").asText()));
        try (ScoringModel model = new ConfiguredModels().load(config)) {
            Evaluator.TestSet test = ExperimentData.prepare(config, model).testSet();
            report("zero-shot", confusion(model, test, null));
            report("tuned", confusion(model, test, z));
        }
    }

    static double[] newestSnapshotMean(String journal) throws Exception {
        String url = "jdbc:h2:file:" + journal.replace(".mv.db", "") + ";ACCESS_MODE_DATA=r";
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             ResultSet row = connection.createStatement().executeQuery("SELECT \"snapshot_payload\" FROM \"snapshot\" "
                     + "ORDER BY \"sequence_number\" DESC LIMIT 1")) {
            row.next();
            JsonNode mean = new CBORMapper().readTree(row.getBytes(1)).path("global").path("cmaes").path("mean");
            double[] z = new double[mean.size()];
            for (int i = 0; i < z.length; i++) {
                z[i] = mean.get(i).asDouble();
            }
            return z;
        }
    }

    /** confusion[true class][predicted class] over the test set, scored 64 rows at a time. */
    static int[][] confusion(ScoringModel model, Evaluator.TestSet test, double[] z) {
        int classes = model.numClasses();
        int[][] confusion = new int[classes][classes];
        for (int start = 0; start < test.rows().size(); start += 64) {
            List<ScoreRow> batch = new ArrayList<>();
            for (int i = start; i < Math.min(test.rows().size(), start + 64); i++) {
                batch.add(new ScoreRow(z, test.rows().get(i)));
            }
            float[][] scores = model.score(batch);
            for (int i = 0; i < scores.length; i++) {
                confusion[test.labels()[start + i]][TaskMetric.predicted(scores[i])]++;
            }
        }
        return confusion;
    }

    static void report(String name, int[][] confusion) {
        StringBuilder line = new StringBuilder(name);
        int correct = 0;
        int total = 0;
        for (int c = 0; c < confusion.length; c++) {
            int examples = 0;
            int predicted = 0;
            for (int other = 0; other < confusion.length; other++) {
                examples += confusion[c][other];
                predicted += confusion[other][c];
            }
            correct += confusion[c][c];
            total += examples;
            line.append(String.format(Locale.ROOT, "  class %d: recall %.4f, predicted %d", c,
                    confusion[c][c] / (double) examples, predicted));
        }
        System.out.println(line + String.format(Locale.ROOT, "  accuracy %.4f", correct / (double) total));
    }
}
