package dev.fedbpt.engine.fedbbpt;

import dev.fedbpt.engine.method.Upload;
import java.util.Arrays;

/**
 * A client's answer to the counts round: how often each token and each adjacent token pair occurs in its own rows,
 * nothing else (see {@link TokenCounts} for what is counted and why only counts leave the client). Tokens are sorted
 * by id, pairs by (first, second); every count is >= 1 (only nonzero entries are sent). The counts round measures no
 * loss: {@link #loss()} is 0 so that the framework's non-finite-loss screen accepts the upload.
 */
public record CountsUpload(int round, int clientId, int sampleCount, int[] tokens, int[] tokenCounts,
                           int[] pairFirst, int[] pairSecond, int[] pairCounts) implements Upload {
    public CountsUpload {
        if (round < 0 || clientId < 0) {
            throw new IllegalArgumentException("round and clientId must be >= 0");
        }
        if (sampleCount < 1) {
            throw new IllegalArgumentException("sampleCount must be >= 1, was " + sampleCount);
        }
        if (tokens == null || tokenCounts == null || pairFirst == null || pairSecond == null || pairCounts == null) {
            throw new IllegalArgumentException("count arrays must not be null");
        }
        if (tokens.length != tokenCounts.length) {
            throw new IllegalArgumentException(tokens.length + " tokens but " + tokenCounts.length + " counts");
        }
        if (pairFirst.length != pairSecond.length || pairFirst.length != pairCounts.length) {
            throw new IllegalArgumentException("pair arrays differ in length");
        }
        tokens = tokens.clone();
        tokenCounts = tokenCounts.clone();
        pairFirst = pairFirst.clone();
        pairSecond = pairSecond.clone();
        pairCounts = pairCounts.clone();
        for (int k = 0; k < tokens.length; k++) {
            if (tokens[k] < 0 || tokenCounts[k] < 1 || (k > 0 && tokens[k] <= tokens[k - 1])) {
                throw new IllegalArgumentException("token counts must be positive, ids >= 0 and strictly increasing"
                        + " (entry " + k + ")");
            }
        }
        for (int k = 0; k < pairFirst.length; k++) {
            if (pairFirst[k] < 0 || pairSecond[k] < 0 || pairCounts[k] < 1 || (k > 0
                    && TokenCounts.comparePairs(pairFirst[k - 1], pairSecond[k - 1], pairFirst[k], pairSecond[k]) >= 0)) {
                throw new IllegalArgumentException("pair counts must be positive, ids >= 0 and pairs strictly"
                        + " increasing (entry " + k + ")");
            }
        }
    }

    /** No loss is measured in the counts round. */
    @Override
    public double loss() {
        return 0.0;
    }

    /** Nonzero count entries (tokens and pairs). */
    public int entries() {
        return tokens.length + pairFirst.length;
    }

    @Override
    public String codec() {
        return FedBbptPayloads.NAME;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CountsUpload u && round == u.round && clientId == u.clientId
                && sampleCount == u.sampleCount && Arrays.equals(tokens, u.tokens)
                && Arrays.equals(tokenCounts, u.tokenCounts) && Arrays.equals(pairFirst, u.pairFirst)
                && Arrays.equals(pairSecond, u.pairSecond) && Arrays.equals(pairCounts, u.pairCounts);
    }

    @Override
    public int hashCode() {
        return ((31 * round + clientId) * 31 + sampleCount) * 31 + Arrays.hashCode(tokens) * 17
                + Arrays.hashCode(tokenCounts) + Arrays.hashCode(pairFirst) * 7 + Arrays.hashCode(pairSecond) * 3
                + Arrays.hashCode(pairCounts);
    }

    @Override
    public String toString() {
        return "CountsUpload[round=" + round + ", clientId=" + clientId + ", tokens=" + tokens.length + ", pairs="
                + pairFirst.length + "]";
    }
}
