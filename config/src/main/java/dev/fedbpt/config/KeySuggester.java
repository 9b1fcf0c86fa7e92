package dev.fedbpt.config;

import java.util.Collection;

/** Finds the valid key closest to a mistyped one, so "unknown key" errors can say what was probably meant. */
final class KeySuggester {
    private KeySuggester() {}

    static String nearest(String key, Collection<String> validKeys) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : validKeys) {
            int distance = distance(key, candidate);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = candidate;
            }
        }
        return best;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
