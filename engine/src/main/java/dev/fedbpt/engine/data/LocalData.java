package dev.fedbpt.engine.data;

import java.util.List;

/** A client's tokenised examples: each int[] is a full model input row (e.g. [CLS] ... [SEP]) with its label. */
public record LocalData(List<int[]> tokenIds, int[] labels, int numClasses) {
    public LocalData {
        if (tokenIds == null || labels == null) {
            throw new IllegalArgumentException("tokenIds and labels must not be null");
        }
        if (tokenIds.isEmpty()) {
            throw new IllegalArgumentException("a client needs at least one example");
        }
        if (tokenIds.size() != labels.length) {
            throw new IllegalArgumentException(tokenIds.size() + " rows but " + labels.length + " labels");
        }
        if (numClasses < 2) {
            throw new IllegalArgumentException("numClasses must be >= 2, was " + numClasses);
        }
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0 || labels[i] >= numClasses) {
                throw new IllegalArgumentException("label " + labels[i] + " of row " + i + " outside [0, " + numClasses + ")");
            }
            if (tokenIds.get(i) == null) {
                throw new IllegalArgumentException("row " + i + " is null");
            }
        }
        tokenIds = List.copyOf(tokenIds);
    }

    public int size() {
        return labels.length;
    }
}
