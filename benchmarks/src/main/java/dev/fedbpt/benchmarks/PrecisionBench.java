package dev.fedbpt.benchmarks;

import dev.fedbpt.actors.ConfiguredModels;
import dev.fedbpt.actors.ExperimentData;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.TaskMetric;
import dev.fedbpt.inference.ForwardFlops;
import dev.fedbpt.inference.GemmPeak;
import dev.fedbpt.inference.ModelLoadException;
import dev.fedbpt.inference.ModelOptions;
import dev.fedbpt.inference.ModelTokenizer;
import dev.fedbpt.inference.PromptModel;
import dev.fedbpt.inference.ScoreRow;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * fp32 against static int8 on one experiment's model and task, side by side in one JVM: zero-shot accuracy on the
 * task's test rows (the manual prompt, no tuned prompt) and forward rows per second on batches of its test rows,
 * the two models timed in turn so that whatever else runs on the machine weighs on both alike. The int8 model is
 * calibrated as a run with {@code model.precision = int8} is ({@link ConfiguredModels#calibration}), on training
 * rows drawn by the experiment seed, never on test rows.
 */
public final class PrecisionBench {
    private static final int SCORE_BATCH = 32;

    /**
     * Rows per second of both models on one batch size; {@code speedup} = int8 over fp32. {@code meanOperations}:
     * the arithmetic of a row of the batch ({@link ForwardFlops}), which turns rows/s into operations/s.
     */
    public record Throughput(int batch, double meanTokens, double meanOperations, double fp32RowsPerSecond,
                             double int8RowsPerSecond) {
        public double speedup() {
            return int8RowsPerSecond / fp32RowsPerSecond;
        }

        public double fp32GigaFlops() {
            return fp32RowsPerSecond * meanOperations / 1e9;
        }

        public double int8GigaOps() {
            return int8RowsPerSecond * meanOperations / 1e9;
        }
    }

    /**
     * Accuracy in [0, 1] on {@code testRows} rows; {@code agreement}: the share of rows both models class alike;
     * {@code peak}: one large matrix product in each precision on the same threads, the ceiling of a forward.
     */
    public record Result(String model, String task, int testRows, double accuracyFp32, double accuracyInt8,
                         double agreement, List<Throughput> throughput, GemmPeak.Result peak) {
        /** int8 rows/s over fp32 at the largest batch measured. */
        public double speedup() {
            return throughput.get(throughput.size() - 1).speedup();
        }
    }

    private PrecisionBench() {}

    public static Result measure(ExperimentConfig config, int[] batches, int repeats, Consumer<String> progress) {
        ConfiguredModels models = new ConfiguredModels();
        ExperimentData data;
        try (ModelTokenizer tokenizer = models.tokenizer(config)) {
            data = ExperimentData.prepare(config, tokenizer);
        }
        ModelOptions.Int8 calibration = ConfiguredModels.calibration(data, config);
        progress.accept("loading fp32 and int8 (calibrated on " + calibration.rows().size() + " training rows)");
        try (PromptModel fp32 = models.loadOnnx(config, null);
             PromptModel int8 = models.loadOnnx(config, calibration)) {
            List<int[]> test = data.testSet().rows();
            int[] labels = data.testSet().labels();
            progress.accept("zero-shot on " + test.size() + " test rows, fp32 then int8");
            int[] a = predictions(fp32, test);
            int[] b = predictions(int8, test);
            int rightA = 0;
            int rightB = 0;
            int same = 0;
            for (int r = 0; r < test.size(); r++) {
                if (a[r] == labels[r]) rightA++;
                if (b[r] == labels[r]) rightB++;
                if (a[r] == b[r]) same++;
            }
            List<Throughput> throughput = new ArrayList<>();
            for (int batch : batches) {
                List<ScoreRow> rows = new ArrayList<>();
                double tokens = 0;
                double operations = 0;
                for (int i = 0; i < batch; i++) {
                    int[] row = test.get(i % test.size());
                    rows.add(ScoreRow.withoutPrompt(row));
                    tokens += row.length;
                    operations += fp32.forwardFlops().perRow(row.length);
                }
                progress.accept("timing batches of " + batch);
                fp32.score(rows);
                int8.score(rows); // warm-up
                double[] fp32Seconds = new double[repeats];
                double[] int8Seconds = new double[repeats];
                for (int k = 0; k < repeats; k++) {
                    fp32Seconds[k] = seconds(fp32, rows);
                    int8Seconds[k] = seconds(int8, rows);
                }
                throughput.add(new Throughput(batch, tokens / batch, operations / batch,
                        batch / CmaesBenchmark.median(fp32Seconds), batch / CmaesBenchmark.median(int8Seconds)));
            }
            progress.accept("timing one " + GemmPeak.FEED_FORWARD + " matrix product in each precision");
            GemmPeak.Result peak = GemmPeak.measure(GemmPeak.FEED_FORWARD,
                    ModelOptions.defaults().withIntraOpThreads(config.model().intraOpThreads()), repeats);
            String model = config.model().onnx().isEmpty() ? config.model().bundled() : config.model().onnx();
            return new Result(model, config.task().name(), test.size(), (double) rightA / test.size(),
                    (double) rightB / test.size(), (double) same / test.size(), throughput, peak);
        } catch (ModelLoadException e) {
            throw new IllegalStateException("cannot build the matrix-product graphs: " + e.getMessage(), e);
        }
    }

    private static int[] predictions(PromptModel model, List<int[]> rows) {
        int[] out = new int[rows.size()];
        for (int from = 0; from < rows.size(); from += SCORE_BATCH) {
            List<ScoreRow> batch = new ArrayList<>();
            for (int r = from; r < Math.min(rows.size(), from + SCORE_BATCH); r++) {
                batch.add(ScoreRow.withoutPrompt(rows.get(r)));
            }
            float[][] scores = model.score(batch);
            for (int r = 0; r < scores.length; r++) out[from + r] = TaskMetric.predicted(scores[r]);
        }
        return out;
    }

    private static double seconds(PromptModel model, List<ScoreRow> rows) {
        long t0 = System.nanoTime();
        model.score(rows);
        return (System.nanoTime() - t0) / 1e9;
    }
}
