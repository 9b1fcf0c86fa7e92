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
 */
public record ModelOptions(int intraOpThreads, double rewriteTolerance, boolean threadSpinning,
                           OptionalInt cudaDevice) {
    public static final double DEFAULT_REWRITE_TOLERANCE = 1e-5;

    public ModelOptions {
        if (intraOpThreads < 0) throw new IllegalArgumentException("intraOpThreads must be >= 0");
        if (!(rewriteTolerance >= 0)) throw new IllegalArgumentException("rewriteTolerance must be >= 0");
        if (cudaDevice.orElse(0) < 0) throw new IllegalArgumentException("cudaDevice must be >= 0");
    }

    public static ModelOptions defaults() {
        return new ModelOptions(0, DEFAULT_REWRITE_TOLERANCE, false, OptionalInt.empty());
    }

    public ModelOptions withIntraOpThreads(int threads) {
        return new ModelOptions(threads, rewriteTolerance, threadSpinning, cudaDevice);
    }

    public ModelOptions withThreadSpinning(boolean spinning) {
        return new ModelOptions(intraOpThreads, rewriteTolerance, spinning, cudaDevice);
    }

    public ModelOptions withCudaDevice(OptionalInt device) {
        return new ModelOptions(intraOpThreads, rewriteTolerance, threadSpinning, device);
    }
}
