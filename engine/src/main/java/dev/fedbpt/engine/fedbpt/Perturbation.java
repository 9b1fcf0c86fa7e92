package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * FedBPT's anti-overfitting input perturbation X*M + X^*(1-M), in two readings. The paper's ({@link #perturb}): a
 * fresh mask every local iteration; each non-special token is replaced, with probability r_p, by a uniformly drawn
 * non-special vocabulary token; special tokens ([CLS], [SEP], [MASK], padding...) are kept so the template and the
 * label position survive. The reference code's ({@link #perturbPerRound}, data_process.py perturb_dataset): one
 * Bernoulli(r_p) mask per client and round over every attended token, special ones included, each replaced by a
 * uniform draw from the whole vocabulary.
 */
public final class Perturbation {
    private Perturbation() {
    }

    /** The mask of (round, client, iteration): a fresh one per local iteration, reproducible from the seed. */
    public static List<int[]> perturb(List<int[]> rows, Vocabulary vocabulary, double rate, long experimentSeed,
                                      int round, int clientId, int iteration) {
        return apply(rows, vocabulary, rate,
                Rng.of(experimentSeed, Purpose.PERTURBATION, round, clientId, iteration));
    }

    /** The reference code's mask of (round, client): drawn once, used by every iteration and the final mean. */
    public static List<int[]> perturbPerRound(List<int[]> rows, Vocabulary vocabulary, double rate,
                                              long experimentSeed, int round, int clientId) {
        if (rows == null || vocabulary == null) {
            throw new IllegalArgumentException("rows and vocabulary must not be null");
        }
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("rate must be in [0, 1], was " + rate);
        }
        RandomGenerator rng = Rng.of(experimentSeed, Purpose.PERTURBATION_PER_ROUND, round, clientId);
        List<int[]> out = new ArrayList<>(rows.size());
        for (int[] row : rows) {
            int[] copy = row.clone();
            for (int i = 0; i < copy.length; i++) {
                // torch.randint_like over the vocabulary and torch.bernoulli(r_p * attention_mask), per token.
                int replacement = rng.nextInt(vocabulary.size());
                if (rng.nextDouble() < rate) {
                    copy[i] = replacement;
                }
            }
            out.add(copy);
        }
        return out;
    }

    /** New rows (inputs are not modified). Draws one uniform per non-special token, plus one per replacement. */
    public static List<int[]> apply(List<int[]> rows, Vocabulary vocabulary, double rate, RandomGenerator rng) {
        if (rows == null || vocabulary == null || rng == null) {
            throw new IllegalArgumentException("rows, vocabulary and rng must not be null");
        }
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("rate must be in [0, 1], was " + rate);
        }
        List<int[]> out = new ArrayList<>(rows.size());
        for (int[] row : rows) {
            int[] copy = row.clone();
            if (rate > 0) {
                for (int i = 0; i < copy.length; i++) {
                    if (vocabulary.isSpecial(copy[i])) {
                        continue;
                    }
                    if (rng.nextDouble() < rate) {
                        copy[i] = vocabulary.nonSpecialToken(rng.nextInt(vocabulary.nonSpecialCount()));
                    }
                }
            }
            out.add(copy);
        }
        return out;
    }
}
