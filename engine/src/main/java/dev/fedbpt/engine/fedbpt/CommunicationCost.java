package dev.fedbpt.engine.fedbpt;

/** Message sizes in bytes, every number sent as an 8-byte double. */
public final class CommunicationCost {
    public static final int BYTES_PER_NUMBER = 8;

    private CommunicationCost() {
    }

    /** FedBPT upload per client and round: mean (d) + I local sigmas + 1 loss. */
    public static long fedBptUplinkBytes(int d, int localIterations) {
        check(d);
        return (long) (d + localIterations + 1) * BYTES_PER_NUMBER;
    }

    /**
     * What a client needs to rebuild the server state: mean d + sigma 1 + C's upper triangle d(d+1)/2 + both paths 2d.
     * (The generation counter, needed for h_sigma, is a small integer and not counted.)
     */
    public static long fedBptDownlinkBytes(int d) {
        check(d);
        return ((long) d + 1 + (long) d * (d + 1) / 2 + 2L * d) * BYTES_PER_NUMBER;
    }

    /** The full d x d covariance alone, as the public reference code ships it (~2 MB at d = 500). */
    public static long fullCovarianceDownlinkBytes(int d) {
        check(d);
        return (long) d * d * BYTES_PER_NUMBER;
    }

    /**
     * FedAvg-BBT upload: FedBPT's (d + I + 1) plus the local covariance (upper triangle), both paths (2d) and the
     * sample count (1) that weights the average.
     */
    public static long fedAvgBbtUplinkBytes(int d, int localIterations) {
        check(d);
        return fedBptUplinkBytes(d, localIterations) + ((long) d * (d + 1) / 2 + 2L * d + 1) * BYTES_PER_NUMBER;
    }

    private static void check(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("d must be >= 1, was " + d);
        }
    }
}
