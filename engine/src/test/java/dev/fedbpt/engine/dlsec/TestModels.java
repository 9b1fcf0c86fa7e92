package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.MapSettings;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.ModelFacts;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.PromptScorer;
import dev.fedbpt.engine.method.TokenEmbeddings;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** A small model for DLS-EC's tests: random embeddings, and class scores that a prompt can improve. */
final class TestModels {
    static final int VOCABULARY = 300;
    static final int HIDDEN = 8;
    static final Vocabulary VOCAB = new Vocabulary(VOCABULARY, new int[] {0, 1, 2, 3});

    private TestModels() {}

    static TokenEmbeddings embeddings(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] w = new float[VOCABULARY * HIDDEN];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) (random.nextDouble() * 2 - 1);
        }
        return new TokenEmbeddings(VOCABULARY, HIDDEN, w);
    }

    /**
     * Two classes; a row's sign (its second token odd: +1) times the prompt's mean projection on a fixed direction is
     * the margin of class 1, so prompts pointing along the direction separate the classes better.
     */
    static PromptScorer scorer() {
        return (prompt, rows) -> {
            float[][] vectors = ((Prompt.Embeddings) prompt).vectors();
            double projection = 0;
            for (float[] v : vectors) {
                for (int j = 0; j < v.length; j++) {
                    projection += v[j] * (j % 2 == 0 ? 1 : -0.5);
                }
            }
            projection /= vectors.length;
            float[][] scores = new float[rows.size()][];
            for (int r = 0; r < rows.size(); r++) {
                int sign = rows.get(r)[1] % 2 == 1 ? 1 : -1;
                scores[r] = new float[] {0f, (float) (sign * projection)};
            }
            return scores;
        };
    }

    /** Rows [CLS=2, w, SEP=3] whose label is w's parity (what the scorer can learn). */
    static LocalData data(int size, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<int[]> rows = new ArrayList<>();
        int[] labels = new int[size];
        for (int i = 0; i < size; i++) {
            int w = 4 + random.nextInt(VOCABULARY - 4);
            rows.add(new int[] {2, w, 3});
            labels[i] = w % 2;
        }
        return new LocalData(rows, labels, 2);
    }

    static MethodContext context(Map<String, String> overrides, int rounds, long seed) {
        Map<String, String> values = new HashMap<>(Map.ofEntries(
                Map.entry("dls-ec.prompt-length", "6"), Map.entry("dls-ec.candidates", "3"),
                Map.entry("dls-ec.local-steps", "5"), Map.entry("dls-ec.phi", "3"), Map.entry("dls-ec.alpha", "0.2"),
                Map.entry("dls-ec.alpha-scale", "absolute"),
                Map.entry("dls-ec.first-pass", "20"), Map.entry("dls-ec.download", "compressed"),
                Map.entry("dls-ec.keep-current", "true"), Map.entry("dls-ec.batch-size", "4"),
                Map.entry("dls-ec.full-batch-up-to", "8"), Map.entry("dls-ec.first-token", "10"),
                Map.entry("dls-ec.post-tuning.dimension", "5"), Map.entry("dls-ec.post-tuning.sigma", "0.1"),
                Map.entry("dls-ec.post-tuning.population", "4"), Map.entry("dls-ec.post-tuning.budget", "16"),
                Map.entry("dls-ec.post-tuning.rows", "training"), Map.entry("dls-ec.post-tuning.shots-per-class", "4"),
                Map.entry("dls-ec.post-tuning.eval-every", "8"),
                Map.entry("bbt.sigma", "1.0"), Map.entry("bbt.budget", "24")));
        values.putAll(overrides);
        MethodSettings settings = new MapSettings(values);
        return new MethodContext(settings, rounds, seed, ModelFacts.of(VOCAB, embeddings(seed)));
    }
}
