package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.MethodSettings;

/**
 * The settings of the gradient methods ({@code gradient.*} in fedbpt-defaults.conf, where each choice has its reason).
 *
 * @param promptLength  soft-prompt vectors of fedprompt
 * @param firstToken    the soft prompt starts as the word embeddings of this token id and the next ones
 * @param prefixLength  prefix key/value vectors per layer of fedp-tuning
 * @param prefixInitStd standard deviation of the initial prefix, as {@code gradient.prefix-init} reads it
 */
public record GradientConfig(int promptLength, int firstToken, int prefixLength, double prefixInitStd, int localEpochs,
                      int batchSize, AdamW.Settings adam, double clipNorm, FedPTuning fedPTuning) {

    /**
     * What fedp-tuning trains: FedBPT's code's P-tuning prompt encoder (an LSTM and MLP whose output is the
     * gradient.prompt-length input vectors; {@link PromptEncoder}) or a P-tuning v2 prefix of gradient.prefix-length
     * vectors on every layer.
     */
    public enum FedPTuning { PROMPT_ENCODER, PREFIX }

    public static GradientConfig from(MethodSettings s) {
        return new GradientConfig(
                promptLength(s),
                s.integer("gradient.first-token", 0, Integer.MAX_VALUE),
                prefixLength(s),
                initialPrefixStd(s),
                localEpochs(s),
                s.integer("gradient.batch-size", 1, 4096),
                new AdamW.Settings(s.number("gradient.learning-rate", 0, 1e3),
                        s.number("gradient.weight-decay", 0, 1e3),
                        s.number("gradient.adam-eps", 0, 1),
                        s.number("gradient.beta1", 0, 0.999999),
                        s.number("gradient.beta2", 0, 0.999999999)),
                s.number("gradient.clip-norm", 0, 1e9),
                s.choice("gradient.fedp-tuning", FedPTuning.class));
    }

    /**
     * How the prefix starts: as FedPepTAO's code ends up drawing it ({@code code}: transformers 4.6.0 re-initialises
     * the PrefixEncoder's embedding N(0, {@value #CODE_PREFIX_STD}^2), RoBERTa's initializer_range) or as the
     * nn.Embedding draws it before that ({@code embedding}: N(0, {@code gradient.prefix-init-std}^2)).
     */
    public enum PrefixInit { CODE, EMBEDDING }

    /** The initializer_range of RoBERTa's and BERT's configurations, with which transformers draws an Embedding. */
    public static final double CODE_PREFIX_STD = 0.02;

    private static double initialPrefixStd(MethodSettings s) {
        return s.choice("gradient.prefix-init", PrefixInit.class) == PrefixInit.CODE ? CODE_PREFIX_STD
                : s.number("gradient.prefix-init-std", 0, 1e6);
    }

    /** The longer of the soft prompt and the prefix: the positions before a row a white-box prompt may take. */
    public static int promptPositions(MethodSettings s) {
        return Math.max(promptLength(s), prefixLength(s));
    }

    static int localEpochs(MethodSettings s) {
        return s.integer("gradient.local-epochs", 1, 1000);
    }

    private static int promptLength(MethodSettings s) {
        return s.integer("gradient.prompt-length", 1, 512);
    }

    private static int prefixLength(MethodSettings s) {
        return s.integer("gradient.prefix-length", 1, 512);
    }
}
