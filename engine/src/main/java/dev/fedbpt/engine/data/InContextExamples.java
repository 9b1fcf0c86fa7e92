package dev.fedbpt.engine.data;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * The in-context-learning baseline's demonstrations: up to k labelled training examples written before the input,
 * cycling through the classes so that every class is shown when k >= K. The same demonstrations precede every test
 * input; the caller drops trailing ones while the whole row does not fit the model.
 */
public final class InContextExamples {
    private InContextExamples() {}

    /** Up to {@code k} examples of {@code train}, one class after another (label order), each drawn at random. */
    public static List<Example> select(Dataset train, int k, RandomGenerator rng) {
        List<List<Example>> byClass = new ArrayList<>();
        for (int c = 0; c < train.numClasses(); c++) {
            byClass.add(new ArrayList<>());
        }
        for (Example e : train.examples()) {
            byClass.get(e.label()).add(e);
        }
        List<Example> chosen = new ArrayList<>();
        for (int i = 0; chosen.size() < k && i < k * train.numClasses(); i++) {
            List<Example> pool = byClass.get(i % train.numClasses());
            if (!pool.isEmpty()) {
                chosen.add(pool.remove(rng.nextInt(pool.size())));
            }
        }
        return List.copyOf(chosen);
    }

    /**
     * The first {@code n} demonstrations as one text, each written as its text followed by its label's description
     * (e.g. "A gripping film. It was great."): the context placed before every input.
     */
    public static String context(List<Example> demonstrations, TaskDefinition task, int n) {
        StringBuilder text = new StringBuilder();
        for (Example demo : demonstrations.subList(0, n)) {
            if (!text.isEmpty()) {
                text.append(' ');
            }
            text.append(demo.text().strip()).append(' ').append(task.labelDescriptions().get(demo.label()));
        }
        return text.toString();
    }
}
