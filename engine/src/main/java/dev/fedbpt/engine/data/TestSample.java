package dev.fedbpt.engine.data;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * A capped test set ({@code data.test-limit}) as a stratified random sample: each class keeps its share of the
 * limit (largest remainders first, ties to the lower label), its examples drawn at random, and the sample keeps
 * the file's order. Taking the first N rows instead scores one class alone on a file sorted by label.
 */
public final class TestSample {
    private TestSample() {
    }

    /** At most {@code limit} of {@code examples}, stratified by label ({@code numClasses} classes), drawn by rng. */
    public static List<Example> stratified(List<Example> examples, int limit, int numClasses, RandomGenerator rng) {
        if (limit >= examples.size()) return examples;
        List<List<Integer>> byClass = new ArrayList<>();
        for (int c = 0; c < numClasses; c++) byClass.add(new ArrayList<>());
        for (int i = 0; i < examples.size(); i++) byClass.get(examples.get(i).label()).add(i);
        int[] take = new int[numClasses];
        double[] remainder = new double[numClasses];
        int given = 0;
        for (int c = 0; c < numClasses; c++) {
            double share = (double) limit * byClass.get(c).size() / examples.size();
            take[c] = (int) Math.floor(share);
            remainder[c] = share - take[c];
            given += take[c];
        }
        while (given < limit) {
            int best = -1;
            for (int c = 0; c < numClasses; c++) {
                if (take[c] < byClass.get(c).size() && (best < 0 || remainder[c] > remainder[best])) best = c;
            }
            take[best]++;
            remainder[best] = -1;
            given++;
        }
        boolean[] chosen = new boolean[examples.size()];
        for (int c = 0; c < numClasses; c++) {
            List<Integer> members = byClass.get(c);
            // a partial Fisher-Yates shuffle: the first take[c] positions are a uniform sample of the class
            for (int i = 0; i < take[c]; i++) {
                int j = i + rng.nextInt(members.size() - i);
                Collections.swap(members, i, j);
                chosen[members.get(i)] = true;
            }
        }
        List<Example> out = new ArrayList<>(limit);
        for (int i = 0; i < examples.size(); i++) if (chosen[i]) out.add(examples.get(i));
        return out;
    }
}
