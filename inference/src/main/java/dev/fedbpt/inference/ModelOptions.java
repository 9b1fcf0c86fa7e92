package dev.fedbpt.inference;

import java.util.OptionalInt;

/**
 * Runtime options.
 *
 * @param intraOpThreads   ONNX Runtime intra-op threads; 0 = ONNX Runtime's default (one per core)
 * @param rewriteTolerance the largest accepted max abs difference between the rewritten and the original graph on
 *                         the load-time probe batch
 * @param threadSpinning   let idle ONNX Runtime worker threads spin between runs (ORT's default); off by default
 *                         here, because spinning workers compete with the Java-side work between forwards
 * @param cudaDevice       the CUDA device ONNX Runtime runs the graph on (its CUDA execution provider, which the
 *                         gpu build profile brings); empty: the CPU
 * @param maskedLmGather   whether a masked-LM head computes only what it reads, the label words' logits at [MASK]
 *                         ({@link MaskedLmGather}; the same scores), rather than logits for every token and word
 */
public record ModelOptions(int intraOpThreads, double rewriteTolerance, boolean threadSpinning,
                           OptionalInt cudaDevice, boolean maskedLmGather) {
    public static final double DEFAULT_REWRITE_TOLERANCE = 1e-5;

    public ModelOptions {
        if (intraOpThreads < 0) throw new IllegalArgumentException("intraOpThreads must be >= 0");
        if (!(rewriteTolerance >= 0)) throw new IllegalArgumentException("rewriteTolerance must be >= 0");
        if (cudaDevice.orElse(0) < 0) throw new IllegalArgumentException("cudaDevice must be >= 0");
    }

    public static ModelOptions defaults() {
        return new ModelOptions(0, DEFAULT_REWRITE_TOLERANCE, false, OptionalInt.empty(), true);
    }

    public ModelOptions withIntraOpThreads(int threads) {
        return new ModelOptions(threads, rewriteTolerance, threadSpinning, cudaDevice, maskedLmGather);
    }

    public ModelOptions withThreadSpinning(boolean spinning) {
        return new ModelOptions(intraOpThreads, rewriteTolerance, spinning, cudaDevice, maskedLmGather);
    }

    public ModelOptions withCudaDevice(OptionalInt device) {
        return new ModelOptions(intraOpThreads, rewriteTolerance, threadSpinning, device, maskedLmGather);
    }

    public ModelOptions withMaskedLmGather(boolean gather) {
        return new ModelOptions(intraOpThreads, rewriteTolerance, threadSpinning, cudaDevice, gather);
    }
}
