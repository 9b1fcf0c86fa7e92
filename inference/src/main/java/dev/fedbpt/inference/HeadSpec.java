package dev.fedbpt.inference;

import java.util.List;

/** How class scores are read from the model output. */
public sealed interface HeadSpec permits HeadSpec.Similarity, HeadSpec.MaskedLm {

    int numClasses();

    /** This head for {@code source}'s model: a {@link Pooling#DEFAULT} pooling replaced by the model's own. */
    default HeadSpec forModel(ModelSource source) {
        return this;
    }

    /**
     * For encoder-only exports whose output is hidden states [batch, seq, hidden]: score of class c =
     * cos(pool(row), pool(labelDescriptions[c])) / temperature, pooling by {@code pooling} (mean or [CLS];
     * {@link Pooling#DEFAULT} = the model's own, {@link ModelSource#defaultPooling()}). The mean leaves a token
     * prompt's positions out ({@link ScoreRow#tokenPrompt}) unless {@code poolsTokenPrompt}, the reading that
     * averages them in with the sentence.
     */
    record Similarity(List<String> labelDescriptions, double temperature, Pooling pooling, boolean poolsTokenPrompt)
            implements HeadSpec {
        public static final double DEFAULT_TEMPERATURE = 0.05;

        public Similarity {
            labelDescriptions = List.copyOf(labelDescriptions);
            if (labelDescriptions.size() < 2) throw new IllegalArgumentException("need at least two label descriptions");
            if (!(temperature > 0)) throw new IllegalArgumentException("temperature must be > 0, got " + temperature);
            if (pooling == null) throw new IllegalArgumentException("pooling must not be null (DEFAULT: the model's own)");
        }

        public Similarity(List<String> labelDescriptions, double temperature, Pooling pooling) {
            this(labelDescriptions, temperature, pooling, false);
        }

        public Similarity(List<String> labelDescriptions, double temperature) {
            this(labelDescriptions, temperature, Pooling.DEFAULT);
        }

        /** How many of a row's {@code tokenPrompt} prompt tokens the mean leaves out: none if it pools them. */
        public int tokenPromptLeftOut(int tokenPrompt) {
            return poolsTokenPrompt ? 0 : tokenPrompt;
        }

        public Similarity(List<String> labelDescriptions) {
            this(labelDescriptions, DEFAULT_TEMPERATURE);
        }

        @Override
        public Similarity forModel(ModelSource source) {
            return new Similarity(labelDescriptions, temperature, pooling.forModel(source), poolsTokenPrompt);
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
