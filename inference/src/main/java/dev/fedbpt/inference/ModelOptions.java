package dev.fedbpt.inference;

/**
 * Runtime options.
 *
 * @param intraOpThreads   ONNX Runtime intra-op threads; 0 = ONNX Runtime's default (one per core)
 * @param rewriteTolerance the largest accepted max abs difference between the rewritten and the original graph on
 *                         the load-time probe batch
 * @param threadSpinning   let idle ONNX Runtime worker threads spin between runs (ORT's default); off by default
 *                         here, because spinning workers compete with the Java-side work between forwards
 */
public record ModelOptions(int intraOpThreads, double rewriteTolerance, boolean threadSpinning) {
    public static final double DEFAULT_REWRITE_TOLERANCE = 1e-5;

    public ModelOptions {
        if (intraOpThreads < 0) throw new IllegalArgumentException("intraOpThreads must be >= 0");
        if (!(rewriteTolerance >= 0)) throw new IllegalArgumentException("rewriteTolerance must be >= 0");
    }

    public static ModelOptions defaults() {
        return new ModelOptions(0, DEFAULT_REWRITE_TOLERANCE, false);
    }

    public ModelOptions withIntraOpThreads(int threads) {
        return new ModelOptions(threads, rewriteTolerance, threadSpinning);
    }

    public ModelOptions withThreadSpinning(boolean spinning) {
        return new ModelOptions(intraOpThreads, rewriteTolerance, spinning);
    }
}
