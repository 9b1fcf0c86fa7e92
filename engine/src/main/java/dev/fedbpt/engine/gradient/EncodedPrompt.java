package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.Prompt;

/**
 * FedP-tuning as FedBPT's code trains it: the parameters are a {@link PromptEncoder}, whose output is the input-layer
 * soft prompt of {@code layout} (T vectors, no prefix); the model's gradient with respect to that prompt is taken
 * back through the encoder.
 */
record EncodedPrompt(PromptEncoder encoder, PromptLayout layout) implements Parameterisation {
    EncodedPrompt {
        if (layout.prefixLength() != 0 || layout.inputLength() != encoder.length()
                || layout.hidden() != encoder.hidden()) {
            throw new IllegalArgumentException("the encoder makes " + encoder.length() + " input vectors of "
                    + encoder.hidden() + ", the layout holds " + layout);
        }
    }

    @Override
    public int size() {
        return encoder.size();
    }

    @Override
    public Mapped map(double[] params) {
        PromptEncoder.Pass pass = encoder.forward(params);
        return new Mapped() {
            @Override
            public Prompt.Deep prompt() {
                return layout.prompt(pass.prompt());
            }

            @Override
            public double[] gradient(Gradient gradient) {
                return pass.backward(gradient.input());
            }
        };
    }
}
