/*
 * What a device's own test rows give to a prompt-free rule: each device predicts the label most frequent in its own
 * training rows (a tie counts as the share of the tied labels it would get right on average). Printed in the
 * p_accuracy forms a personalised run records (mean over devices, and pooled over their rows), so a personalised
 * method's P accuracy under label skew can be read against it (docs/RESULTS.md, "FedPepTAO's own setting"). Reads
 * only the run's config.conf and the data files; no model is loaded, only its tokenizer (seconds):
 *
 *   java -Dai.djl.offline=true -cp "$(cat cli/target/classpath.txt)" experiments/probes/MajorityBaseline.java RUN
 */
import dev.fedbpt.actors.ConfiguredModels;
import dev.fedbpt.actors.ExperimentData;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.inference.ModelTokenizer;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

public class MajorityBaseline {
    public static void main(String[] args) throws Exception {
        Path run = Path.of(args[0]);
        ExperimentConfig config = ConfigLoader.load(run.resolve("config.conf"), List.of());
        try (ModelTokenizer tokenizer = new ConfiguredModels().tokenizer(config)) {
            ExperimentData data = ExperimentData.prepare(config, tokenizer);
            if (data.clientTests() == null) {
                System.out.println(run + ": its devices have no test rows of their own");
                return;
            }
            Tally participants = new Tally();
            Tally heldOut = new Tally();
            for (int k = 0; k < data.clients().size(); k++) {
                LocalData test = data.clientTest(k);
                Tally group = data.participation().isParticipant(k) ? participants : heldOut;
                group.add(expectedCorrect(data.clients().get(k), test), test.size());
            }
            participants.print("participants");
            heldOut.print("held out");
        }
    }

    /** One group of devices: the rule's accuracy summed over them, and their test rows and rows right. */
    private static final class Tally {
        double accuracySum;
        int devices;
        int rows;
        double rowsRight;

        void add(double right, int testRows) {
            accuracySum += right / testRows;
            devices++;
            rows += testRows;
            rowsRight += right;
        }

        void print(String who) {
            if (devices == 0) return;
            System.out.printf(Locale.ROOT,
                    "%s: %d devices, %d rows; majority rule: mean over devices %.4f, pooled %.4f%n",
                    who, devices, rows, accuracySum / devices, rowsRight / rows);
        }
    }

    /** Rows of test a device gets right, on average, by predicting its training majority label. */
    static double expectedCorrect(LocalData train, LocalData test) {
        int[] trainCounts = counts(train);
        int max = 0;
        for (int c : trainCounts) max = Math.max(max, c);
        int[] testCounts = counts(test);
        double right = 0;
        int tied = 0;
        for (int c = 0; c < trainCounts.length; c++) {
            if (trainCounts[c] == max) {
                right += testCounts[c];
                tied++;
            }
        }
        return right / tied;
    }

    /** Rows per label, as {@code Dataset.labelCounts} counts them before tokenising. */
    private static int[] counts(LocalData rows) {
        int[] counts = new int[rows.numClasses()];
        for (int label : rows.labels()) counts[label]++;
        return counts;
    }
}
