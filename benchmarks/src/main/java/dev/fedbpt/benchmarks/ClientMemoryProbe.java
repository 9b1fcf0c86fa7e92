package dev.fedbpt.benchmarks;

import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.inference.HeadSpec;
import dev.fedbpt.inference.ModelOptions;
import dev.fedbpt.inference.ModelSource;
import dev.fedbpt.inference.PromptModel;
import dev.fedbpt.inference.PromptSpec;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.whitebox.WhiteBoxCheck;
import dev.fedbpt.whitebox.WhiteBoxModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * One client's local work in a JVM of its own, for {@code fedbpt bench client-memory}: loads the bundled encoder on
 * one backend, does {@code steps} local steps on {@code batch} rows of {@code tokens} tokens, and prints one line of
 * JSON with the process's resident memory after loading and at its peak (Linux's VmRSS and VmHWM).
 *
 * <p>Modes: {@code fedbpt} (FedBPT's client on ONNX Runtime: each step scores lambda = 5 candidate z of d = 500,
 * projected to 50 prompt vectors, on the batch), {@code forward-pytorch} (the same forward passes on the PyTorch
 * backend with a 50-vector soft prompt, no gradient), {@code fedprompt} and {@code fedp-tuning} (one backward pass
 * per step: a 50-vector soft prompt, or a 20-vector prefix on every layer).
 */
public final class ClientMemoryProbe {
    static final int CANDIDATES = 5;
    static final int PROMPT_LENGTH = 50;
    static final int PREFIX_LENGTH = 20;
    static final int DIMENSION = 500;

    private ClientMemoryProbe() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int batch = Integer.parseInt(args[1]);
        int tokens = Integer.parseInt(args[2]);
        int steps = Integer.parseInt(args[3]);
        HeadSpec.Similarity head = WhiteBoxCheck.PROBE_HEAD;
        long t0 = System.nanoTime();
        long loaded;
        Random random = new Random(1);
        List<int[]> rows = WhiteBoxCheck.syntheticRows(batch, tokens, 101, 102); // the bundled [CLS], [SEP]
        if (mode.equals("fedbpt")) {
            try (PromptModel model = PromptModel.load(ModelSource.bundled(), new PromptSpec(PROMPT_LENGTH, DIMENSION,
                    1234L, PromptSpec.Injection.PREPEND), head, ModelOptions.defaults().withIntraOpThreads(1))) {
                loaded = rss("VmRSS");
                for (int s = 0; s < steps; s++) {
                    List<ScoreRow> work = new ArrayList<>();
                    for (int c = 0; c < CANDIDATES; c++) {
                        double[] z = gaussian(DIMENSION, random);
                        for (int[] row : rows) work.add(new ScoreRow(z, row));
                    }
                    model.score(work);
                }
            }
        } else {
            try (WhiteBoxModel model = WhiteBoxModel.load(ModelSource.bundled(), head,
                    WhiteBoxModel.Precision.FLOAT32, Math.max(PROMPT_LENGTH, PREFIX_LENGTH))) {
                loaded = rss("VmRSS");
                int h = model.hiddenSize();
                int[] labels = new int[batch];
                for (int i = 0; i < batch; i++) labels[i] = i % 2;
                for (int s = 0; s < steps; s++) {
                    switch (mode) {
                        case "forward-pytorch" -> {
                            for (int c = 0; c < CANDIDATES; c++) {
                                model.score(Prompt.Deep.input(PROMPT_LENGTH, gaussian(PROMPT_LENGTH * h, random)),
                                        rows);
                            }
                        }
                        case "fedprompt" -> model.lossAndGradient(Prompt.Deep.input(PROMPT_LENGTH,
                                gaussian(PROMPT_LENGTH * h, random)), rows, labels);
                        case "fedp-tuning" -> model.lossAndGradient(Prompt.Deep.prefix(PREFIX_LENGTH,
                                gaussian(model.layers() * 2 * PREFIX_LENGTH * h, random)), rows, labels);
                        default -> throw new IllegalArgumentException("unknown mode " + mode);
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "{\"mode\":\"%s\",\"rss_after_load_kib\":%d,\"peak_rss_kib\":%d,"
                + "\"seconds\":%.2f}%n", mode, loaded, rss("VmHWM"), (System.nanoTime() - t0) / 1e9);
        System.exit(0);
    }

    private static double[] gaussian(int n, Random random) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = random.nextGaussian() * 0.1;
        return v;
    }

    /** A memory line of /proc/self/status in KiB (VmRSS: now, VmHWM: peak); -1 where there is none. */
    static long rss(String field) throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) return -1;
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).replace("kB", "").trim());
            }
        }
        return -1;
    }
}
