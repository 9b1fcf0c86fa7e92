package dev.fedbpt.engine.data;

import java.util.Arrays;

/** Token id range [0, size) and the special tokens that perturbation must neither replace nor draw. */
public record Vocabulary(int size, int[] specialTokenIds) {
    public Vocabulary {
        if (specialTokenIds == null) {
            throw new IllegalArgumentException("specialTokenIds must not be null (use an empty array)");
        }
        int[] sorted = specialTokenIds.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] < 0 || sorted[i] >= size) {
                throw new IllegalArgumentException("special token " + sorted[i] + " outside [0, " + size + ")");
            }
            if (i > 0 && sorted[i] == sorted[i - 1]) {
                throw new IllegalArgumentException("duplicate special token " + sorted[i]);
            }
        }
        if (size - sorted.length < 1) {
            throw new IllegalArgumentException("vocabulary of size " + size + " has no non-special token");
        }
        specialTokenIds = sorted; // sorted copy: lookups use binary search
    }

    public boolean isSpecial(int tokenId) {
        return Arrays.binarySearch(specialTokenIds, tokenId) >= 0;
    }

    public int nonSpecialCount() {
        return size - specialTokenIds.length;
    }

    /** The k-th (0-based) non-special token id in increasing order. */
    public int nonSpecialToken(int k) {
        if (k < 0 || k >= nonSpecialCount()) {
            throw new IllegalArgumentException("k must be in [0, " + nonSpecialCount() + "), was " + k);
        }
        int id = k;
        for (int s : specialTokenIds) { // sorted: every special id <= id shifts the answer up by one
            if (s <= id) {
                id++;
            } else {
                break;
            }
        }
        return id;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Vocabulary v && size == v.size && Arrays.equals(specialTokenIds, v.specialTokenIds);
    }

    @Override
    public int hashCode() {
        return 31 * size + Arrays.hashCode(specialTokenIds);
    }

    @Override
    public String toString() {
        return "Vocabulary[size=" + size + ", specialTokenIds=" + Arrays.toString(specialTokenIds) + "]";
    }
}
