package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.TokenEmbeddings;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import org.apache.commons.math3.random.RandomGenerator;

/** Where the white-box methods' parameters start, so that methods compared with each other start alike. */
public final class InitialPrompt {
    private InitialPrompt() {}

    /** A prefix of {@code layout}, N(0, std^2) drawn once from the experiment seed (as the code's nn.Embedding). */
    public static float[] prefix(PromptLayout layout, double std, long seed) {
        float[] params = new float[layout.size()];
        RandomGenerator rng = Rng.of(seed, Purpose.GRADIENT_INIT);
        for (int i = 0; i < params.length; i++) params[i] = (float) (rng.nextGaussian() * std);
        return params;
    }

    /** A soft prompt of {@code layout}: the word embeddings of {@code firstToken}, {@code firstToken + 1}, ... */
    public static float[] softPrompt(PromptLayout layout, TokenEmbeddings embeddings, int firstToken) {
        float[] params = new float[layout.size()];
        for (int t = 0; t < layout.inputLength(); t++) {
            System.arraycopy(embeddings.row(firstToken + t), 0, params, t * layout.hidden(), layout.hidden());
        }
        return params;
    }
}
