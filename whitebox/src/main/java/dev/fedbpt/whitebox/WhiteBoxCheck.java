package dev.fedbpt.whitebox;

import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.inference.HeadSpec;
import dev.fedbpt.inference.ModelLoadException;
import dev.fedbpt.inference.ModelOptions;
import dev.fedbpt.inference.ModelSource;
import dev.fedbpt.inference.PromptModel;
import dev.fedbpt.inference.PromptSpec;
import dev.fedbpt.inference.ScoreRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * {@code fedbpt model-check --backend pytorch}: the white-box rebuild of a model against its ONNX Runtime path, on
 * the class scores of a two-class similarity head (probe sentences of different lengths, without a prompt and with a
 * random soft prompt), and the white-box throughput of a forward pass and of a forward and backward pass with a
 * P-tuning v2 prefix, the work of one local step of a gradient method. Both backends on one thread (the white-box
 * model always runs on one).
 */
public final class WhiteBoxCheck {
    public static final HeadSpec.Similarity PROBE_HEAD =
            new HeadSpec.Similarity(List.of("It was terrible.", "It was great."));
    private static final String[] PROBES = {
            "a gripping, funny and moving film", "dull.", "not good",
            "the plot is thin but the actors carry it with charm and wit to the very end",
            "Stocks rallied on Tuesday after the central bank held interest rates steady.",
            "An hour and a half of people shouting at each other in a kitchen, and somehow it works.",
            "bad", "I would not watch it again, but I am glad I saw it once."};

    /**
     * @param maxAbsDiffBare   max |score_torch - score_onnx| over the probes without a prompt
     * @param maxAbsDiffPrompt the same with a soft prompt of {@code promptLength} random vectors
     * @param throughput       per batch size: forward rows/s and forward + backward rows/s with the prefix
     */
    public record Result(String model, int layers, int heads, int hiddenSize, int promptLength, int prefixLength,
                         double maxAbsDiffBare, double maxAbsDiffPrompt, int rowTokens, List<Throughput> throughput) {
    }

    /** Rows per second of the white-box model at one batch size, rows of {@code rowTokens} tokens. */
    public record Throughput(int batchSize, double forwardRowsPerSec, double backwardRowsPerSec) {
    }

    private WhiteBoxCheck() {
    }

    /**
     * The largest absolute differences between {@code torch}'s class scores of {@code rows} and ONNX Runtime's,
     * without a prompt [0] and with the soft prompt {@code soft} [1] ({@code onnx} built for its length).
     */
    static double[] differencesFromOnnx(PromptModel onnx, WhiteBoxModel torch, List<int[]> rows, double[] soft) {
        float[] softF = new float[soft.length];
        for (int i = 0; i < soft.length; i++) softF[i] = (float) soft[i];
        List<ScoreRow> bare = new ArrayList<>();
        List<ScoreRow> prompted = new ArrayList<>();
        for (int[] row : rows) {
            bare.add(ScoreRow.withoutPrompt(row));
            prompted.add(ScoreRow.withEmbeddings(softF, row));
        }
        int length = soft.length / torch.hiddenSize();
        return new double[] {maxAbsDiff(onnx.score(bare), torch.score((Prompt) null, rows)),
                maxAbsDiff(onnx.score(prompted), torch.score(Prompt.Deep.input(length, soft), rows))};
    }

    public static Result run(ModelSource source) throws ModelLoadException {
        int promptLength = 4;
        int prefixLength = 20;
        try (WhiteBoxModel torch = WhiteBoxModel.load(source, PROBE_HEAD, WhiteBoxModel.Precision.FLOAT32);
             PromptModel onnx = PromptModel.load(source, new PromptSpec(promptLength, 10, 3L,
                     PromptSpec.Injection.PREPEND), PROBE_HEAD, ModelOptions.defaults().withIntraOpThreads(1))) {
            List<int[]> rows = new ArrayList<>();
            for (String p : PROBES) rows.add(torch.encode(p));
            double[] diffs = differencesFromOnnx(onnx, torch, rows, gaussian(promptLength * torch.hiddenSize(), 0.05, 1));
            double diffBare = diffs[0];
            double diffPrompt = diffs[1];
            int rowTokens = 64;
            Prompt.Deep prefix = Prompt.Deep.prefix(prefixLength,
                    gaussian(torch.layers() * 2 * prefixLength * torch.hiddenSize(), 0.1, 2));
            List<Throughput> throughput = new ArrayList<>();
            for (int batch : new int[]{8, 32}) {
                List<int[]> synthetic = syntheticRows(batch, rowTokens, rows.get(0)[0], rows.get(0)[rows.get(0).length - 1]);
                int[] labels = new int[batch];
                for (int i = 0; i < batch; i++) labels[i] = i % 2;
                torch.score(prefix, synthetic); // warm-up
                torch.lossAndGradient(prefix, synthetic, labels);
                int reps = 3;
                long t0 = System.nanoTime();
                for (int k = 0; k < reps; k++) torch.score(prefix, synthetic);
                double forward = batch * reps / ((System.nanoTime() - t0) / 1e9);
                t0 = System.nanoTime();
                for (int k = 0; k < reps; k++) torch.lossAndGradient(prefix, synthetic, labels);
                double backward = batch * reps / ((System.nanoTime() - t0) / 1e9);
                throughput.add(new Throughput(batch, forward, backward));
            }
            return new Result(source.describe(), torch.layers(), torch.heads(), torch.hiddenSize(), promptLength,
                    prefixLength, diffBare, diffPrompt, rowTokens, throughput);
        }
    }

    /**
     * {@code batch} rows of {@code tokens} ids: {@code cls}, ordinary word ids from 1996 on (the bundled vocabulary's
     * first whole words), {@code sep}. The same for every backend, for measurements that compare them.
     */
    public static List<int[]> syntheticRows(int batch, int tokens, int cls, int sep) {
        List<int[]> rows = new ArrayList<>();
        for (int r = 0; r < batch; r++) {
            int[] row = new int[tokens];
            row[0] = cls;
            for (int i = 1; i < tokens - 1; i++) row[i] = 1996 + (r * 131 + i * 17) % 5000;
            row[tokens - 1] = sep;
            rows.add(row);
        }
        return rows;
    }

    private static double maxAbsDiff(float[][] a, float[][] b) {
        double max = 0;
        for (int r = 0; r < a.length; r++) {
            for (int c = 0; c < a[r].length; c++) max = Math.max(max, Math.abs((double) a[r][c] - b[r][c]));
        }
        return max;
    }

    /** {@code n} normal draws of standard deviation {@code scale} from {@code seed}: probe prompts. */
    static double[] gaussian(int n, double scale, long seed) {
        Random random = new Random(seed);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = random.nextGaussian() * scale;
        return v;
    }
}
