package dev.fedbpt.engine.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * Few-shot sampling as in FedBPT / BBT: k examples per class drawn at random from a training set.
 *
 * <p>For each class, in label order, the examples of that class are shuffled once with the given generator; the
 * training sample is the first k of that order and the development sample the next ones. Hence the two are always
 * disjoint, and with the same generator seed a larger k extends a smaller one. A class with fewer examples than asked
 * contributes all it has (and then nothing to the development split). The returned datasets list the chosen examples
 * in their original dataset order, so the result does not depend on the order of the draws; callers that need a mixed
 * order shuffle it themselves.
 */
public final class FewShot {
    private FewShot() {
    }

    /** A few-shot training set and a disjoint development set drawn from the same data. */
    public record TrainDev(Dataset train, Dataset dev) {
        public TrainDev {
            Objects.requireNonNull(train, "train");
            Objects.requireNonNull(dev, "dev");
        }
    }

    /** {@code perClass} random examples of every class (all of a class's examples if it has fewer). */
    public static Dataset sample(Dataset data, int perClass, RandomGenerator rng) {
        return trainDev(data, perClass, 0, rng).train();
    }

    /**
     * {@code perClass} training and {@code devPerClass} development examples per class, disjoint. The training part
     * equals {@link #sample} with a generator in the same state.
     */
    public static TrainDev trainDev(Dataset data, int perClass, int devPerClass, RandomGenerator rng) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(rng, "rng");
        if (perClass < 0 || devPerClass < 0) {
            throw new IllegalArgumentException("examples per class must be >= 0 but were " + perClass
                    + " (train) and " + devPerClass + " (dev)");
        }
        List<Example> all = data.examples();
        int[][] byClass = indicesByClass(all, data.numClasses());
        List<Integer> train = new ArrayList<>();
        List<Integer> dev = new ArrayList<>();
        for (int[] indices : byClass) {
            Shuffle.shuffle(indices, rng);
            int t = Math.min(perClass, indices.length);
            int d = Math.min(devPerClass, indices.length - t);
            for (int i = 0; i < t; i++) {
                train.add(indices[i]);
            }
            for (int i = t; i < t + d; i++) {
                dev.add(indices[i]);
            }
        }
        return new TrainDev(
                subset(data, train, data.name() + "/train-" + perClass + "-per-class"),
                subset(data, dev, data.name() + "/dev-" + devPerClass + "-per-class"));
    }

    private static int[][] indicesByClass(List<Example> examples, int numClasses) {
        int[] counts = new int[numClasses];
        for (Example e : examples) {
            counts[e.label()]++;
        }
        int[][] byClass = new int[numClasses][];
        for (int c = 0; c < numClasses; c++) {
            byClass[c] = new int[counts[c]];
        }
        int[] fill = new int[numClasses];
        for (int i = 0; i < examples.size(); i++) {
            int c = examples.get(i).label();
            byClass[c][fill[c]++] = i;
        }
        return byClass;
    }

    private static Dataset subset(Dataset data, List<Integer> indices, String name) {
        int[] sorted = indices.stream().mapToInt(Integer::intValue).toArray();
        Arrays.sort(sorted);
        List<Example> chosen = new ArrayList<>(sorted.length);
        for (int i : sorted) {
            chosen.add(data.examples().get(i));
        }
        return new Dataset(name, chosen, data.labelNames());
    }
}
