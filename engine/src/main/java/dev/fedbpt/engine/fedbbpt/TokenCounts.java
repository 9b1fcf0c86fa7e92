package dev.fedbpt.engine.fedbbpt;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Token and adjacent-pair counts: what a client counts over its own rows in the counts round, and their sums over
 * the clients, from which the server picks the candidate tokens ({@link PmiCandidates}).
 *
 * <p>A client counts over each of its token rows without the row's first and last token ([CLS] ... [SEP]), split
 * into "sentences" at the vocabulary's special ids (a [SEP] between two sentences, padding); every token of a
 * sentence is counted once, every adjacent pair of it once: BDPL's words and pairs (pmi_ngram.py:44-51), over token
 * ids where BDPL splits the raw training text at spaces. Template tokens that are not special ids (" It was" of
 * "It was [MASK].") are in the rows and so are counted; BDPL counts only the raw sentences.
 *
 * <p>Privacy: no text leaves the client, only these counts, which a secure aggregation protocol (Bonawitz et al.
 * 2017) could sum so that the server sees only the pooled counts of all clients. What they still reveal: which tokens
 * and token bigrams occur in the client's data and how often (without secure aggregation, per client; a rare token
 * such as a name, with its neighbours, can identify an example, and a client with very few rows could have much of
 * its text rebuilt from its bigrams); with secure aggregation, the same about the pooled corpus. No noise is added
 * (no differential privacy).
 */
public final class TokenCounts {
    private final TreeMap<Integer, Long> tokens = new TreeMap<>();
    private final TreeMap<Long, Long> pairs = new TreeMap<>(); // key: first << 32 | second (ids >= 0: sorted as pairs)

    private TokenCounts() {}

    /** A client's counts of its own rows, as its counts-round upload. */
    public static CountsUpload count(int round, int clientId, LocalData data, Vocabulary vocabulary) {
        TokenCounts counts = new TokenCounts();
        for (int[] row : data.tokenIds()) {
            int previous = -1; // -1: no token before this one in the current sentence
            for (int p = 1; p < row.length - 1; p++) {
                int token = row[p];
                if (vocabulary.isSpecial(token)) {
                    previous = -1;
                    continue;
                }
                counts.tokens.merge(token, 1L, Long::sum);
                if (previous >= 0) {
                    counts.pairs.merge(key(previous, token), 1L, Long::sum);
                }
                previous = token;
            }
        }
        int[] ids = new int[counts.tokens.size()];
        int[] idCounts = new int[ids.length];
        int k = 0;
        for (Map.Entry<Integer, Long> e : counts.tokens.entrySet()) {
            ids[k] = e.getKey();
            idCounts[k++] = Math.toIntExact(e.getValue());
        }
        int[] first = new int[counts.pairs.size()];
        int[] second = new int[first.length];
        int[] pairCounts = new int[first.length];
        k = 0;
        for (Map.Entry<Long, Long> e : counts.pairs.entrySet()) {
            first[k] = first(e.getKey());
            second[k] = second(e.getKey());
            pairCounts[k++] = Math.toIntExact(e.getValue());
        }
        return new CountsUpload(round, clientId, data.size(), ids, idCounts, first, second, pairCounts);
    }

    /** The sums of the clients' counts (the order of {@code uploads} cannot change integer sums). */
    public static TokenCounts pool(List<CountsUpload> uploads) {
        TokenCounts pooled = new TokenCounts();
        for (CountsUpload u : uploads) {
            for (int k = 0; k < u.tokens().length; k++) {
                pooled.tokens.merge(u.tokens()[k], (long) u.tokenCounts()[k], Long::sum);
            }
            for (int k = 0; k < u.pairFirst().length; k++) {
                pooled.pairs.merge(key(u.pairFirst()[k], u.pairSecond()[k]), (long) u.pairCounts()[k], Long::sum);
            }
        }
        return pooled;
    }

    /** Token id to count, by increasing id. */
    public Map<Integer, Long> tokens() {
        return Collections.unmodifiableMap(tokens);
    }

    /** Pair key ({@link #key}) to count, by increasing (first, second). */
    public Map<Long, Long> pairs() {
        return Collections.unmodifiableMap(pairs);
    }

    public long tokenCount(int token) {
        return tokens.getOrDefault(token, 0L);
    }

    public long pairCount(int first, int second) {
        return pairs.getOrDefault(key(first, second), 0L);
    }

    static long key(int first, int second) {
        return ((long) first << 32) | (second & 0xFFFFFFFFL);
    }

    static int first(long key) {
        return (int) (key >>> 32);
    }

    static int second(long key) {
        return (int) key;
    }

    static int comparePairs(int a1, int b1, int a2, int b2) {
        return a1 != a2 ? Integer.compare(a1, a2) : Integer.compare(b1, b2);
    }
}
