package dev.fedbpt.engine.fedbbpt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The candidate token ids, chosen from pooled token and pair counts the way BDPL builds its {@code pmi/<task>.txt}
 * lists (pmi_ngram.py, run_glue_discrete_LM.py:180-195), over token ids instead of space-separated words:
 * <ol>
 *   <li>total = the number of adjacent pairs counted (pmi_ngram.py:51: BDPL's total counts pairs, not words);
 *       tokens and pairs counted at most {@code minCount} times are dropped (:52-53);</li>
 *   <li>a pair (a, b) is joined when PMI(a, b) = log(total c(ab) / (c(a) c(b))) >= the threshold (:59-67, Eq. 8);</li>
 *   <li>n-grams: BDPL segments every sentence at the pairs that are not joined and keeps the segments seen more than
 *       {@code minCount} times (:70-80), then counts every occurrence of each kept n-gram, inside longer ones too, and
 *       keeps those seen more than ngram_freq_threshold times (:85-103). From counts alone we take: each joined pair
 *       (a, b) as a 2-gram of frequency c(ab) (what BDPL's recount gives a kept 2-gram), and each kept token a as a
 *       1-gram of frequency c(a) when its occurrences outside joined pairs, at least c(a) - sum_x c(x a) -
 *       sum_y c(a y) over joined pairs, number more than {@code minCount} (BDPL's test for a 1-gram segment, from
 *       below). Longer chains need counts of longer n-grams, which the clients do not send; their tokens enter
 *       through their joined pairs;</li>
 *   <li>n-grams by decreasing frequency, ties by decreasing token ids (:135 sorts by (count, n-gram) in reverse,
 *       comparing strings where we compare ids); their tokens in order, deduplicated (run_glue_discrete_LM.py:192-193);
 *       the first {@code N} (the prompt's index j picks ngram_list[j], :574);</li>
 *   <li>if fewer than N: the remaining counted tokens by decreasing count (ties: decreasing id); if the clients'
 *       data hold fewer than N distinct non-special tokens, the list is shorter than N (the server has no vocabulary
 *       to pad from; {@code candidates} in the metrics says how many).</li>
 * </ol>
 * BDPL also strips trailing non-alphanumeric characters from each phrase before tokenising it (pmi_ngram.py:146-151);
 * ids have no characters, so nothing corresponds to that. BDPL's segmentation drops each sentence's last segment
 * (pmi_ngram.py:71-79 counts a segment only when a break follows it); counts cannot reproduce that quirk.
 */
public final class PmiCandidates {
    private PmiCandidates() {}

    /** An n-gram of candidate ids and its frequency. */
    record Ngram(int[] tokens, long frequency) {}

    /** Orders by decreasing frequency, then decreasing ids (a prefix before its extensions when reversed). */
    static final Comparator<Ngram> BDPL_ORDER = (x, y) -> {
        int byFrequency = Long.compare(y.frequency(), x.frequency());
        return byFrequency != 0 ? byFrequency : Arrays.compare(y.tokens(), x.tokens());
    };

    /**
     * @param maxCandidates N
     * @param pmiThreshold  BDPL's min_pmi
     * @param minCount      BDPL's min_count and ngram_freq_threshold (both 5 by default)
     */
    public static int[] choose(TokenCounts pooled, int maxCandidates, double pmiThreshold, int minCount) {
        List<Ngram> ngrams = ngrams(pooled, pmiThreshold, minCount);
        LinkedHashSet<Integer> chosen = new LinkedHashSet<>();
        for (Ngram ngram : ngrams) {
            for (int token : ngram.tokens()) {
                if (chosen.size() < maxCandidates) {
                    chosen.add(token);
                }
            }
        }
        if (chosen.size() < maxCandidates) {
            List<Ngram> unigrams = new ArrayList<>();
            pooled.tokens().forEach((token, count) -> unigrams.add(new Ngram(new int[] {token}, count)));
            unigrams.sort(BDPL_ORDER);
            for (Ngram u : unigrams) {
                if (chosen.size() >= maxCandidates) {
                    break;
                }
                chosen.add(u.tokens()[0]);
            }
        }
        return chosen.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The n-grams in BDPL's order (steps 1-4 of the class comment). */
    static List<Ngram> ngrams(TokenCounts pooled, double pmiThreshold, int minCount) {
        long total = 0;
        for (long c : pooled.pairs().values()) {
            total += c;
        }
        Map<Long, Long> joinedLeft = new HashMap<>();  // token -> sum of joined pairs (x, token)
        Map<Long, Long> joinedRight = new HashMap<>(); // token -> sum of joined pairs (token, y)
        List<Ngram> ngrams = new ArrayList<>();
        for (Map.Entry<Long, Long> e : pooled.pairs().entrySet()) {
            int a = TokenCounts.first(e.getKey());
            int b = TokenCounts.second(e.getKey());
            long cab = e.getValue();
            long ca = pooled.tokenCount(a);
            long cb = pooled.tokenCount(b);
            if (cab <= minCount || ca <= minCount || cb <= minCount) {
                continue;
            }
            double pmi = Math.log((double) total * cab / (double) (ca * cb));
            if (pmi >= pmiThreshold) {
                joinedRight.merge((long) a, cab, Long::sum);
                joinedLeft.merge((long) b, cab, Long::sum);
                ngrams.add(new Ngram(new int[] {a, b}, cab));
            }
        }
        pooled.tokens().forEach((token, count) -> {
            long alone = count - joinedLeft.getOrDefault((long) token, 0L) - joinedRight.getOrDefault((long) token, 0L);
            if (count > minCount && alone > minCount) {
                ngrams.add(new Ngram(new int[] {token}, count));
            }
        });
        ngrams.removeIf(g -> g.frequency() <= minCount);
        ngrams.sort(BDPL_ORDER);
        return ngrams;
    }
}
