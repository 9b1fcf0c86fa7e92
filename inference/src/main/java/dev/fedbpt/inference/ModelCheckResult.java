package dev.fedbpt.inference;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What {@link ModelCheck} measured.
 *
 * @param model             the model source, as text
 * @param hiddenSize        hidden size (columns of the word-embedding matrix)
 * @param vocabularySize    rows of the word-embedding matrix
 * @param layerCount        transformer layers read from graph names, or null if unknown
 * @param rewriteMaxAbsDiff max abs difference rewritten vs original graph on the probe batch
 * @param rowTokens         token ids per benchmark row (incl. [CLS]/[SEP]); the prompt adds promptLength positions
 * @param promptLength      n_prompt used in the benchmark
 * @param dimension         d used in the benchmark
 * @param throughput        one entry per batch size
 * @param ratio             module / bare rows per second at batch 32 (or the largest batch measured if 32 was not)
 */
public record ModelCheckResult(String model, int hiddenSize, int vocabularySize, Integer layerCount,
                               double rewriteMaxAbsDiff, int rowTokens, int promptLength, int dimension,
                               List<Throughput> throughput, double ratio) {

    /**
     * @param batchSize        rows per forward
     * @param moduleRowsPerSec rows/s of {@link PromptModel#score} (prompt expansion, embedding lookup, forward, head)
     * @param bareRowsPerSec   rows/s of the bare session on precomputed inputs_embeds + attention_mask
     * @param ratio            module / bare
     * @param moduleMedianMs   median wall time of one module call
     * @param bareMedianMs     median wall time of one bare forward
     */
    public record Throughput(int batchSize, double moduleRowsPerSec, double bareRowsPerSec, double ratio,
                             double moduleMedianMs, double bareMedianMs) {
    }

    /** Smallest module/bare ratio over all batch sizes. */
    public double minRatio() {
        return throughput.stream().mapToDouble(Throughput::ratio).min().orElse(Double.NaN);
    }

    public String toJson() {
        String rows = throughput.stream().map(t -> String.format(Locale.ROOT,
                "{\"batchSize\":%d,\"moduleRowsPerSec\":%.2f,\"bareRowsPerSec\":%.2f,\"ratio\":%.4f,"
                        + "\"moduleMedianMs\":%.2f,\"bareMedianMs\":%.2f}",
                t.batchSize(), t.moduleRowsPerSec(), t.bareRowsPerSec(), t.ratio(), t.moduleMedianMs(),
                t.bareMedianMs())).collect(Collectors.joining(",", "[", "]"));
        return String.format(Locale.ROOT,
                "{\"model\":%s,\"hiddenSize\":%d,\"vocabularySize\":%d,\"layerCount\":%s,\"rewriteMaxAbsDiff\":%s,"
                        + "\"rowTokens\":%d,\"promptLength\":%d,\"dimension\":%d,\"throughput\":%s,\"ratio\":%.4f,"
                        + "\"minRatio\":%.4f}",
                quote(model), hiddenSize, vocabularySize, layerCount == null ? "null" : layerCount.toString(),
                Double.toString(rewriteMaxAbsDiff), rowTokens, promptLength, dimension, rows, ratio, minRatio());
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
}
