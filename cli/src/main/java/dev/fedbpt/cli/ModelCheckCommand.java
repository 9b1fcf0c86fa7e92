package dev.fedbpt.cli;

import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.inference.DeviceUnavailableException;
import dev.fedbpt.inference.ModelCheck;
import dev.fedbpt.inference.ModelCheckResult;
import dev.fedbpt.inference.ModelLoadException;
import dev.fedbpt.inference.ModelSource;
import dev.fedbpt.inference.PromptModel;
import dev.fedbpt.whitebox.WhiteBoxCheck;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "model-check", mixinStandardHelpOptions = true,
        description = "Load, rewrite and verify a model; measure forward throughput of the module against a bare session. "
                + "With --backend pytorch: the white-box rebuild against the ONNX path.")
final class ModelCheckCommand implements Callable<Integer> {
    @Option(names = "--model", paramLabel = "FILE.onnx", description = "A BERT-family ONNX export (default: the bundled all-MiniLM-L6-v2).")
    Path model;

    @Option(names = "--bundled", paramLabel = "NAME",
            description = "A bundled model instead of the default one: all-minilm-l6-v2, "
                    + "bge-small-en-v1.5, bert-base-uncased or bert-base-cased.")
    String bundled;

    @Option(names = "--tokenizer", paramLabel = "FILE.json", description = "The export's tokenizer.json (required with --model).")
    Path tokenizer;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Option(names = "--backend", paramLabel = "onnx|pytorch", defaultValue = "onnx",
            description = "onnx (default): the black-box path; pytorch: the white-box rebuild on DJL's PyTorch engine "
                    + "against the ONNX path's class scores, and its forward / backward throughput.")
    String backend;

    @Option(names = "--device", paramLabel = "cpu|cuda[:N]", defaultValue = "cpu",
            description = "Where ONNX Runtime runs the graphs: cpu (default) or a CUDA device, which needs the gpu build "
                    + "(mvn -B -DskipTests -Pgpu package).")
    String device;

    @Override
    public Integer call() throws ModelLoadException {
        Logging.configure(false);
        if ((model == null) != (tokenizer == null)) {
            throw new ConfigError(null, "--model and --tokenizer must be given together");
        }
        if (model != null && bundled != null) {
            throw new ConfigError(null, "--bundled and --model are exclusive");
        }
        ModelSource source;
        try {
            source = model != null ? new ModelSource(model, tokenizer)
                    : bundled != null ? ModelSource.bundled(bundled) : ModelSource.bundled();
        } catch (IllegalArgumentException e) {
            throw new ConfigError(null, "--bundled: " + e.getMessage());
        }
        OptionalInt cuda;
        try {
            cuda = ExperimentConfig.Model.device(device);
        } catch (IllegalArgumentException e) {
            throw new ConfigError(null, "--device: " + e.getMessage());
        }
        if (backend.equals("pytorch")) {
            if (cuda.isPresent()) {
                throw new ConfigError(null, "--device: the pytorch backend computes on the CPU");
            }
            if (!json) System.out.println("rebuilding " + source.describe() + " on PyTorch and comparing ...");
            WhiteBoxCheck.Result r = WhiteBoxCheck.run(source);
            System.out.println(json ? Json.write(toJson(r)) : toText(r));
            return Main.OK;
        }
        if (!backend.equals("onnx")) {
            throw new ConfigError(null, "--backend: expected onnx or pytorch, got '" + backend + "'");
        }
        ModelCheck.Settings defaults = ModelCheck.Settings.defaults();
        ModelCheck.Settings settings = defaults.withOptions(defaults.options().withCudaDevice(cuda));
        ModelCheckResult result;
        try {
            PromptModel.checkDevice(settings.options()); // before loading, where it can tell
            if (!json) {
                System.out.println("loading, rewriting and verifying " + source.describe() + " ...");
            }
            result = ModelCheck.run(source, settings);
        } catch (DeviceUnavailableException e) {
            throw new ConfigError(null, "--device: " + e.getMessage());
        }
        if (!json) {
            System.out.println("device           " + device);
        }
        Map<String, Object> out = toJson(result);
        out.put("device", device);
        System.out.println(json ? Json.write(out) : toText(result));
        return Main.OK;
    }

    static Map<String, Object> toJson(ModelCheckResult result) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("model", result.model());
        out.put("hidden_size", result.hiddenSize());
        out.put("vocab_size", result.vocabularySize());
        out.put("layer_count", result.layerCount());
        out.put("max_abs_diff", result.rewriteMaxAbsDiff());
        out.put("row_tokens", result.rowTokens());
        out.put("prompt_length", result.promptLength());
        out.put("dimension", result.dimension());
        List<Map<String, Object>> throughput = result.throughput().stream().map(t -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("batch", t.batchSize());
            row.put("rows_per_s", round(t.moduleRowsPerSec()));
            row.put("bare_rows_per_s", round(t.bareRowsPerSec()));
            row.put("ratio", round(t.ratio()));
            return row;
        }).toList();
        out.put("throughput", throughput);
        out.put("module_vs_bare_ratio", round(result.ratio()));
        ModelCheckResult.MaskedLmHeads heads = result.maskedLm();
        if (heads != null) {
            Map<String, Object> h = new LinkedHashMap<>();
            h.put("cut_max_abs_diff", heads.cutMaxAbsDiff());
            h.put("cut_peak_rss_bytes", heads.cutPeakRssBytes());
            h.put("full_peak_rss_bytes", heads.fullPeakRssBytes());
            h.put("full_throughput", heads.full().stream().map(t -> {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("batch", t.batchSize());
                row.put("rows_per_s", round(t.moduleRowsPerSec()));
                row.put("bare_rows_per_s", round(t.bareRowsPerSec()));
                return row;
            }).toList());
            out.put("masked_lm_head", h);
        }
        return out;
    }

    static Map<String, Object> toJson(WhiteBoxCheck.Result r) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("backend", "pytorch");
        out.put("model", r.model());
        out.put("layer_count", r.layers());
        out.put("heads", r.heads());
        out.put("hidden_size", r.hiddenSize());
        out.put("class_score_max_abs_diff", r.maxAbsDiffBare());
        out.put("class_score_max_abs_diff_soft_prompt", r.maxAbsDiffPrompt());
        out.put("soft_prompt_length", r.promptLength());
        out.put("prefix_length", r.prefixLength());
        out.put("row_tokens", r.rowTokens());
        out.put("throughput", r.throughput().stream().map(t -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("batch", t.batchSize());
            row.put("forward_rows_per_s", round(t.forwardRowsPerSec()));
            row.put("forward_backward_rows_per_s", round(t.backwardRowsPerSec()));
            return row;
        }).toList());
        return out;
    }

    private static String toText(WhiteBoxCheck.Result r) {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "model            %s (PyTorch rebuild)%n", r.model()));
        text.append(String.format(Locale.ROOT, "layers / heads   %d / %d, hidden %d%n", r.layers(), r.heads(),
                r.hiddenSize()));
        text.append(String.format(Locale.ROOT, "class scores     max abs diff against ONNX Runtime %.3g without a "
                + "prompt, %.3g with a soft prompt of %d (limit 1e-4)%n", r.maxAbsDiffBare(), r.maxAbsDiffPrompt(),
                r.promptLength()));
        text.append(String.format(Locale.ROOT, "throughput       rows of %d tokens, prefix of %d on every layer%n",
                r.rowTokens(), r.prefixLength()));
        text.append(String.format(Locale.ROOT, "  %5s  %14s  %22s%n", "batch", "forward rows/s",
                "forward+backward rows/s"));
        for (WhiteBoxCheck.Throughput t : r.throughput()) {
            text.append(String.format(Locale.ROOT, "  %5d  %14.1f  %22.1f%n", t.batchSize(), t.forwardRowsPerSec(),
                    t.backwardRowsPerSec()));
        }
        return text.toString().stripTrailing();
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }

    private static String toText(ModelCheckResult result) {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "model            %s%n", result.model()));
        text.append(String.format(Locale.ROOT, "hidden size      %d%n", result.hiddenSize()));
        text.append(String.format(Locale.ROOT, "vocabulary size  %d%n", result.vocabularySize()));
        text.append(String.format(Locale.ROOT, "layers           %s%n",
                result.layerCount() == null ? "unknown" : result.layerCount()));
        text.append(String.format(Locale.ROOT, "rewrite check    max abs diff %.3g (limit 1e-5)%n",
                result.rewriteMaxAbsDiff()));
        text.append(String.format(Locale.ROOT, "throughput       rows of %d tokens + %d prompt vectors, d = %d%n",
                result.rowTokens(), result.promptLength(), result.dimension()));
        text.append(String.format(Locale.ROOT, "  %5s  %12s  %12s  %6s%n", "batch", "module rows/s", "bare rows/s",
                "ratio"));
        for (ModelCheckResult.Throughput t : result.throughput()) {
            text.append(String.format(Locale.ROOT, "  %5d  %12.1f  %12.1f  %6.3f%n", t.batchSize(),
                    t.moduleRowsPerSec(), t.bareRowsPerSec(), t.ratio()));
        }
        text.append(String.format(Locale.ROOT, "module vs bare ratio (batch 32): %.3f", result.ratio()));
        ModelCheckResult.MaskedLmHeads heads = result.maskedLm();
        if (heads != null) {
            text.append(String.format(Locale.ROOT, "%nmasked-LM head   cut to the label words at [MASK] (above) against "
                    + "full vocabulary logits; cut scores differ by %.3g%n", heads.cutMaxAbsDiff()));
            text.append(String.format(Locale.ROOT, "  %5s  %12s  %12s  %8s%n", "batch", "cut rows/s", "full rows/s",
                    "cut/full"));
            for (int i = 0; i < heads.full().size(); i++) {
                ModelCheckResult.Throughput cut = result.throughput().get(i);
                ModelCheckResult.Throughput full = heads.full().get(i);
                text.append(String.format(Locale.ROOT, "  %5d  %12.1f  %12.1f  %8.3f%n", cut.batchSize(),
                        cut.moduleRowsPerSec(), full.moduleRowsPerSec(),
                        cut.moduleRowsPerSec() / full.moduleRowsPerSec()));
            }
            text.append(String.format(Locale.ROOT, "peak RSS         %.0f MB after the cut head's runs, %.0f MB after "
                    + "the full head's", heads.cutPeakRssBytes() / 1e6, heads.fullPeakRssBytes() / 1e6));
        }
        return text.toString();
    }
}
