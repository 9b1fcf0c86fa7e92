package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.Prompt;

/**
 * How a gradient method's trained parameters make the prompt the model reads, and how the prompt's gradient becomes
 * theirs: the identity of {@link PromptLayout} (the parameters are the prompt), or FedP-tuning's
 * {@link EncodedPrompt} (the parameters are an encoder whose output is the prompt).
 */
public interface Parameterisation {
    /** The parameters' count. */
    int size();

    /** The prompt for {@code params}, ready to take that prompt's gradient back to the parameters. */
    Mapped map(double[] params);

    /** One parameter vector mapped: its prompt and the way back. */
    interface Mapped {
        Prompt.Deep prompt();

        /** The loss's gradient with respect to the parameters, from the model's with respect to the prompt. */
        double[] gradient(Gradient gradient);
    }
}
