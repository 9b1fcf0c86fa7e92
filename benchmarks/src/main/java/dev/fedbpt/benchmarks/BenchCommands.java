package dev.fedbpt.benchmarks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fedbpt.actors.ConfiguredModels;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.dlsec.DlsEcTimings;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.TokenEmbeddings;
import dev.fedbpt.inference.GemmPeak;
import dev.fedbpt.inference.ModelTokenizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code fedbpt bench} subcommands of the algorithm benchmarks, which the CLI mounts under {@code bench} without
 * knowing them: {@code bench cmaes}.
 */
public final class BenchCommands {
    private BenchCommands() {}

    /** picocli command objects, each with its own {@code @Command} name. */
    public static List<Object> all() {
        return List.of(new CmaesCommand(), new DlsEcCommand(), new ClientMemoryCommand(), new PrecisionCommand());
    }

    @Command(name = "dls-ec", mixinStandardHelpOptions = true,
            description = "DLS-EC's work besides forward passes, on the bundled encoder's embedding matrix: a local "
                    + "step's cosine top-K, and the server's aggregation with LASSO compression of every position.")
    static final class DlsEcCommand implements Callable<Integer> {
        @Option(names = "--clients", defaultValue = "12", description = "Uploads per round (default ${DEFAULT-VALUE}).")
        int clients;

        @Option(names = "--repeats", defaultValue = "3", description = "Aggregations timed; the fastest is shown "
                + "(default ${DEFAULT-VALUE}).")
        int repeats;

        @Option(names = "--set", description = "Configuration override (model.bundled, dls-ec.prompt-length, "
                + "dls-ec.phi, dls-ec.alpha, dls-ec.alpha-scale, dls-ec.local-steps), repeatable.")
        List<String> overrides = new ArrayList<>();

        @Override
        public Integer call() {
            ExperimentConfig config = ConfigLoader.load(null, overrides);
            MethodSettings s = config.settings();
            try (ModelTokenizer model = new ConfiguredModels().tokenizer(config)) {
                TokenEmbeddings embeddings = new TokenEmbeddings(model.vocabularySize(), model.hiddenSize(),
                        model.wordEmbeddings());
                DlsEcTimings.Result r = DlsEcTimings.measure(embeddings,
                        new Vocabulary(model.vocabularySize(), model.specialTokenIds()),
                        s.integer("dls-ec.prompt-length"), s.integer("dls-ec.phi"), s.number("dls-ec.alpha"),
                        s.text("dls-ec.alpha-scale"), clients, s.integer("dls-ec.local-steps"), repeats, config.experiment().seed());
                System.out.printf(Locale.ROOT, "embedding matrix %d x %d, T = %d, Phi = %d, alpha = %s (%s), "
                        + "%d clients, %d cores%n", r.vocabulary(), r.hidden(), r.promptLength(), r.phi(), r.alpha(),
                        r.alphaScale(), r.clients(),
                        Runtime.getRuntime().availableProcessors());
                System.out.printf(Locale.ROOT, "normalised index (once):          %8.1f ms%n", r.indexMs());
                System.out.printf(Locale.ROOT, "cosine top-5 (one local step):    %8.2f ms%n", r.nearestMs());
                System.out.printf(Locale.ROOT, "server aggregation (one round):   %8.1f ms  (%.1f ms per position, "
                        + "positions in parallel; %d of %d positions needed the guard)%n", r.aggregateMs(),
                        r.aggregateMs() / r.promptLength(), r.screenedPositions(), r.promptLength());
                System.out.printf(Locale.ROOT, "mean norm of a token embedding %.3f, of a compressed update "
                        + "%.3f (LASSO keeps a token only where |<E[c], residual>| > alpha / 2, alpha absolute)%n",
                        r.meanTokenNorm(), r.meanResidualNorm());
            }
            return CommandLine.ExitCode.OK;
        }
    }

    @Command(name = "client-memory", mixinStandardHelpOptions = true,
            description = "Peak resident memory of one client's local work on the bundled encoder, each in a fresh "
                    + "JVM: FedBPT (forward passes on ONNX Runtime), the same forward passes on the PyTorch backend, "
                    + "and backpropagation for FedPrompt (50-vector soft prompt) and FedP-tuning (20-vector prefix).")
    static final class ClientMemoryCommand implements Callable<Integer> {
        @Option(names = "--batch", defaultValue = "8", description = "Rows per step (default ${DEFAULT-VALUE}).")
        int batch;

        @Option(names = "--tokens", defaultValue = "64", description = "Tokens per row (default ${DEFAULT-VALUE}).")
        int tokens;

        @Option(names = "--steps", defaultValue = "8", description = "Local steps (default ${DEFAULT-VALUE}: "
                + "FedBPT's I).")
        int steps;

        @Option(names = "--heap", defaultValue = "1g", description = "-Xmx of every probe JVM (default "
                + "${DEFAULT-VALUE}).")
        String heap;

        @Override
        public Integer call() throws Exception {
            List<ClientMemoryBench.Row> rows = ClientMemoryBench.run(batch, tokens, steps, heap);
            System.out.printf(Locale.ROOT, "one client's local work: %d steps on %d rows of %d tokens, all-MiniLM-L6-v2, "
                    + "-Xmx%s, one thread%n", steps, batch, tokens, heap);
            System.out.printf(Locale.ROOT, "%-16s %18s %14s %9s%n", "mode", "RSS after load MiB", "peak RSS MiB",
                    "seconds");
            for (ClientMemoryBench.Row r : rows) {
                System.out.printf(Locale.ROOT, "%-16s %18.0f %14.0f %9.1f%n", r.mode(), r.rssAfterLoadMib(),
                        r.peakRssMib(), r.seconds());
            }
            System.out.println("(fedbpt: 5 candidates a step through ONNX Runtime; forward-pytorch: the same on the "
                    + "white-box backend without gradients; fedprompt / fedp-tuning: one backward pass a step)");
            return CommandLine.ExitCode.OK;
        }
    }

    @Command(name = "precision", mixinStandardHelpOptions = true,
            description = "fp32 against static int8 (linear layers) on one experiment's model and task, side by side: "
                    + "zero-shot accuracy on its test rows and forward rows per second on batches of them. The int8 "
                    + "model is calibrated on training rows drawn by the seed. E.g. --set model.bundled="
                    + "bert-base-uncased with the SST-2 data keys of experiments/sst2-iid-fedbpt.conf.")
    static final class PrecisionCommand implements Callable<Integer> {
        @Option(names = "--config", description = "Experiment configuration file (default: the built-in defaults).")
        java.nio.file.Path configFile;

        @Option(names = "--set", description = "Configuration override, repeatable (model, data, intra-op threads).")
        List<String> overrides = new ArrayList<>();

        @Option(names = "--batch", split = ",", defaultValue = "32,64",
                description = "Batch sizes timed (default ${DEFAULT-VALUE}).")
        int[] batches;

        @Option(names = "--repeats", defaultValue = "5", description = "Timed forwards per model and batch; the "
                + "median is shown (default ${DEFAULT-VALUE}).")
        int repeats;

        @Option(names = "--json", description = "Print one JSON object instead of a table.")
        boolean json;

        @Override
        public Integer call() throws JsonProcessingException {
            ExperimentConfig config = ConfigLoader.load(configFile, overrides);
            PrecisionBench.Result r = PrecisionBench.measure(config, batches, repeats,
                    line -> System.err.println("fedbpt: bench precision: " + line));
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("model", r.model());
                out.put("task", r.task());
                out.put("test_rows", r.testRows());
                out.put("accuracy_fp32", r.accuracyFp32());
                out.put("accuracy_int8", r.accuracyInt8());
                out.put("agreement", r.agreement());
                out.put("speedup", r.speedup());
                out.put("throughput", r.throughput().stream().map(t -> {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("batch", t.batch());
                    row.put("mean_tokens", t.meanTokens());
                    row.put("rows_per_second_fp32", t.fp32RowsPerSecond());
                    row.put("rows_per_second_int8", t.int8RowsPerSecond());
                    row.put("speedup", t.speedup());
                    row.put("gflops_fp32", t.fp32GigaFlops());
                    row.put("gops_int8", t.int8GigaOps());
                    return row;
                }).toList());
                GemmPeak.Result p = r.peak();
                Map<String, Object> peak = new LinkedHashMap<>();
                peak.put("shape", List.of(p.shape().rows(), p.shape().inner(), p.shape().columns()));
                peak.put("gflops_fp32", p.fp32GigaFlops());
                peak.put("gops_int8", p.int8GigaOps());
                peak.put("speedup", p.ratio());
                out.put("gemm_peak", peak);
                System.out.println(new ObjectMapper().writeValueAsString(out));
                return CommandLine.ExitCode.OK;
            }
            System.out.printf(Locale.ROOT, "%s on %s, %d test rows, %d cores, intra-op threads %d%n", r.model(),
                    r.task(), r.testRows(), Runtime.getRuntime().availableProcessors(),
                    config.model().intraOpThreads());
            System.out.printf(Locale.ROOT, "zero-shot accuracy: fp32 %.4f, int8 %.4f (same class on %.1f%% of the "
                    + "rows)%n", r.accuracyFp32(), r.accuracyInt8(), 100 * r.agreement());
            System.out.printf(Locale.ROOT, "%6s %12s %14s %14s %8s %12s %12s%n", "batch", "mean tokens",
                    "fp32 rows/s", "int8 rows/s", "speedup", "fp32 GFLOP/s", "int8 GOP/s");
            for (PrecisionBench.Throughput t : r.throughput()) {
                System.out.printf(Locale.ROOT, "%6d %12.1f %14.1f %14.1f %7.2fx %12.1f %12.1f%n", t.batch(),
                        t.meanTokens(), t.fp32RowsPerSecond(), t.int8RowsPerSecond(), t.speedup(),
                        t.fp32GigaFlops(), t.int8GigaOps());
            }
            GemmPeak.Result p = r.peak();
            System.out.printf(Locale.ROOT, "one %s matrix product: fp32 %.1f GFLOP/s, int8 %.1f GOP/s (%.2fx), "
                    + "the ceiling of the rows above%n", p.shape(), p.fp32GigaFlops(), p.int8GigaOps(), p.ratio());
            return CommandLine.ExitCode.OK;
        }
    }

    @Command(name = "cmaes", mixinStandardHelpOptions = true,
            description = "Function evaluations to reach f < 1e-8: our CMA-ES against Commons Math's CMAESOptimizer"
                    + " (medians over seeds).")
    static final class CmaesCommand implements Callable<Integer> {
        @Option(names = "--seeds", defaultValue = "5", description = "Seeds per function (default ${DEFAULT-VALUE}).")
        int seeds;

        @Option(names = "--json", description = "Print a JSON list instead of a table.")
        boolean json;

        @Override
        public Integer call() throws JsonProcessingException {
            List<CmaesBenchmark.Row> rows = CmaesBenchmark.run(seeds);
            if (json) {
                System.out.println(new ObjectMapper().writeValueAsString(rows.stream().map(row -> {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("function", row.function());
                    out.put("dim", row.dim());
                    out.put("ours_evals", row.oursEvals());
                    out.put("ours_mirrored_active_evals", row.oursMirroredActiveEvals());
                    out.put("commons_math_evals", row.commonsMathEvals());
                    return out;
                }).toList()));
                return CommandLine.ExitCode.OK;
            }
            System.out.printf(Locale.ROOT, "%-12s %4s %14s %22s %18s%n", "function", "dim", "ours tutorial",
                    "ours mirrored-active", "commons-math");
            for (CmaesBenchmark.Row row : rows) {
                System.out.printf(Locale.ROOT, "%-12s %4d %14.0f %22.0f %18.0f%n", row.function(), row.dim(),
                        row.oursEvals(), row.oursMirroredActiveEvals(), row.commonsMathEvals());
            }
            System.out.println("(median function evaluations to reach f < 1e-8 over " + seeds + " seeds; tutorial: "
                    + "Hansen 2016 defaults, as FedBPT runs it; mirrored-active: mirrored sampling and the "
                    + "Hansen-Ros active update)");
            return CommandLine.ExitCode.OK;
        }
    }
}
