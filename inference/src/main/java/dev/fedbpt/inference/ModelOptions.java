package dev.fedbpt.inference;

import java.util.List;
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
 * @param int8             null: the graph computes in fp32; else its linear layers compute in int8
 *                         ({@link Int8Quantizer}), calibrated on these rows
 */
public record ModelOptions(int intraOpThreads, double rewriteTolerance, boolean threadSpinning,
                           OptionalInt cudaDevice, boolean maskedLmGather, Int8 int8) {
    /**
     * Static int8 calibration: the activation ranges of the linear layers' inputs over {@code rows} (token ids as the
     * run scores them, [CLS] first), every other row with a prompt A.z, z standard normal drawn from {@code seed}
     * (a model without a projection scores them bare).
     */
    public record Int8(List<int[]> rows, long seed) {
        public Int8 {
            rows = List.copyOf(rows);
            if (rows.isEmpty()) throw new IllegalArgumentException("int8 calibration needs at least one row");
        }
    }

    public static final double DEFAULT_REWRITE_TOLERANCE = 1e-5;

    public ModelOptions(int intraOpThreads, double rewriteTolerance, boolean threadSpinning, OptionalInt cudaDevice,
                        boolean maskedLmGather) {
        this(intraOpThreads, rewriteTolerance, threadSpinning, cudaDevice, maskedLmGather, null);
    }

    public ModelOptions {
        if (intraOpThreads < 0) throw new IllegalArgumentException("intraOpThreads must be >= 0");
        if (!(rewriteTolerance >= 0)) throw new IllegalArgumentException("rewriteTolerance must be >= 0");
        if (cudaDevice.orElse(0) < 0) throw new IllegalArgumentException("cudaDevice must be >= 0");
    }

    public static ModelOptions defaults() {
        return new ModelOptions(0, DEFAULT_REWRITE_TOLERANCE, false, OptionalInt.empty(), true);
    }

    public ModelOptions withIntraOpThreads(int threads) {
        return new ModelOptions(threads, rewriteTolerance, threadSpinning, cudaDevice, maskedLmGather, int8);
    }

    public ModelOptions withThreadSpinning(boolean spinning) {
        return new ModelOptions(intraOpThreads, rewriteTolerance, spinning, cudaDevice, maskedLmGather, int8);
    }

    public ModelOptions withCudaDevice(OptionalInt device) {
        return new ModelOptions(intraOpThreads, rewriteTolerance, threadSpinning, device, maskedLmGather, int8);
    }

    public ModelOptions withMaskedLmGather(boolean gather) {
        return new ModelOptions(intraOpThreads, rewriteTolerance, threadSpinning, cudaDevice, gather, int8);
    }

    /** These options with the linear layers in int8, calibrated as {@code calibration} says (null: fp32). */
    public ModelOptions withInt8(Int8 calibration) {
        return new ModelOptions(intraOpThreads, rewriteTolerance, threadSpinning, cudaDevice, maskedLmGather,
                calibration);
    }
}
