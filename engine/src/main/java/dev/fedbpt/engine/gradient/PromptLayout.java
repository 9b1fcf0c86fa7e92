package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.Prompt;
import java.util.Arrays;

/**
 * How a gradient method's flat parameter vector splits into a {@link Prompt.Deep}: the soft prompt's values first,
 * then the prefix's.
 *
 * @param inputLength  soft-prompt vectors (0: none)
 * @param prefixLength prefix vectors per layer (0: none)
 */
public record PromptLayout(int inputLength, int prefixLength, int hidden, int layers) implements Parameterisation {

    /** The parameters are the prompt, and the prompt's gradient theirs. */
    @Override
    public Mapped map(double[] params) {
        Prompt.Deep prompt = prompt(params);
        return new Mapped() {
            @Override
            public Prompt.Deep prompt() {
                return prompt;
            }

            @Override
            public double[] gradient(Gradient gradient) {
                return flatten(gradient.input(), gradient.prefix());
            }
        };
    }

    public int inputSize() {
        return inputLength * hidden;
    }

    @Override
    public int size() {
        return inputSize() + layers * 2 * prefixLength * hidden;
    }

    public Prompt.Deep prompt(double[] params) {
        if (params.length != size()) {
            throw new IllegalArgumentException(params.length + " parameters for a layout of " + size());
        }
        return new Prompt.Deep(inputLength, inputLength == 0 ? null : Arrays.copyOfRange(params, 0, inputSize()),
                prefixLength, prefixLength == 0 ? null : Arrays.copyOfRange(params, inputSize(), size()));
    }

    /** {@code params} as the prompt of this layout (float32 values, exactly). */
    public Prompt.Deep prompt(float[] params) {
        return prompt(widen(params));
    }

    /** Float32 values as doubles, exactly. */
    public static double[] widen(float[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < out.length; i++) out[i] = values[i];
        return out;
    }

    /** Doubles rounded to float32 (parameters as a float32 model holds them and as they travel). */
    public static float[] narrow(double[] values) {
        float[] out = new float[values.length];
        for (int i = 0; i < out.length; i++) out[i] = (float) values[i];
        return out;
    }

    /** Parameters per layer of the prefix (its keys and values). */
    public int perLayer() {
        return 2 * prefixLength * hidden;
    }

    /** The gradient of a {@link #prompt} laid out like the parameters. */
    public double[] flatten(double[] input, double[] prefix) {
        double[] out = new double[size()];
        System.arraycopy(input, 0, out, 0, input.length);
        System.arraycopy(prefix, 0, out, inputSize(), prefix.length);
        return out;
    }
}
