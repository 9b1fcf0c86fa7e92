package dev.fedbpt.inference;

import java.util.List;

/** How class scores are read from the model output. */
public sealed interface HeadSpec permits HeadSpec.Similarity, HeadSpec.MaskedLm {

    int numClasses();

    /**
     * For encoder-only exports whose output is hidden states [batch, seq, hidden]: score of class c =
     * cos(meanpool(row), meanpool(labelDescriptions[c])) / temperature.
     */
    record Similarity(List<String> labelDescriptions, double temperature) implements HeadSpec {
        public static final double DEFAULT_TEMPERATURE = 0.05;

        public Similarity {
            labelDescriptions = List.copyOf(labelDescriptions);
            if (labelDescriptions.size() < 2) throw new IllegalArgumentException("need at least two label descriptions");
            if (!(temperature > 0)) throw new IllegalArgumentException("temperature must be > 0, got " + temperature);
        }

        public Similarity(List<String> labelDescriptions) {
            this(labelDescriptions, DEFAULT_TEMPERATURE);
        }

        @Override
        public int numClasses() {
            return labelDescriptions.size();
        }
    }

    /**
     * For exports whose output is vocabulary logits [batch, seq, vocab]: score of class c = logit of labelWords[c]
     * at the row's [MASK] position. Each label word must tokenize to exactly one token.
     */
    record MaskedLm(List<String> labelWords) implements HeadSpec {
        public MaskedLm {
            labelWords = List.copyOf(labelWords);
            if (labelWords.size() < 2) throw new IllegalArgumentException("need at least two label words");
        }

        @Override
        public int numClasses() {
            return labelWords.size();
        }
    }
}
