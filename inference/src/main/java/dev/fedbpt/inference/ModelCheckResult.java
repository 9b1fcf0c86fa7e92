package dev.fedbpt.inference;

import java.util.List;

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
 * @param maskedLm          for a masked LM, the head cut to the label words at [MASK] (what runs use, measured in
 *                          {@code throughput}) against the full vocabulary logits; null for an encoder
 */
public record ModelCheckResult(String model, int hiddenSize, int vocabularySize, Integer layerCount,
                               double rewriteMaxAbsDiff, int rowTokens, int promptLength, int dimension,
                               List<Throughput> throughput, double ratio, MaskedLmHeads maskedLm) {

    /**
     * @param cutMaxAbsDiff    max abs difference of the cut head's class scores from the full head's (probe rows)
     * @param cutPeakRssBytes  the process's peak resident memory after the cut head's runs (measured first)
     * @param full             the full head's throughput, per batch size
     * @param fullPeakRssBytes the process's peak resident memory after the full head's runs as well
     */
    public record MaskedLmHeads(double cutMaxAbsDiff, long cutPeakRssBytes, List<Throughput> full,
                                long fullPeakRssBytes) {
    }

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
}
