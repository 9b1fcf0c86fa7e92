package dev.fedbpt.whitebox;

import java.util.Arrays;

/**
 * The trainable parameters a white-box method tunes, flat and row-major, in double (the engine's precision; the
 * model rounds them to its own).
 *
 * @param inputLength  T, the number of soft-prompt vectors inserted after [CLS] (FedPrompt); 0 for none
 * @param input        T x hidden values, or an empty array
 * @param prefixLength n_p, the prefix length of P-tuning v2; 0 for none
 * @param prefix       layers x 2 x n_p x hidden values (keys at index 0, values at index 1 of the second axis), or
 *                     an empty array
 */
public record DeepPrompt(int inputLength, double[] input, int prefixLength, double[] prefix) {

    public DeepPrompt {
        if (inputLength < 0 || prefixLength < 0) throw new IllegalArgumentException("negative prompt length");
        input = input == null ? new double[0] : input;
        prefix = prefix == null ? new double[0] : prefix;
        if ((inputLength == 0) != (input.length == 0) || (prefixLength == 0) != (prefix.length == 0)) {
            throw new IllegalArgumentException("a prompt length of 0 goes with no values, and only then");
        }
    }

    /** No prompt at all: the frozen model as it is. */
    public static DeepPrompt none() {
        return new DeepPrompt(0, null, 0, null);
    }

    /** A soft prompt of {@code length} input vectors. */
    public static DeepPrompt input(int length, double[] values) {
        return new DeepPrompt(length, values, 0, null);
    }

    /** A P-tuning v2 prefix of {@code length} key/value vectors on every layer. */
    public static DeepPrompt prefix(int length, double[] values) {
        return new DeepPrompt(0, null, length, values);
    }

    /** Checks the value counts against the model's shape. */
    void checkShape(int hidden, int layers) {
        if (input.length != (long) inputLength * hidden) {
            throw new IllegalArgumentException("a soft prompt of " + inputLength + " vectors needs "
                    + (long) inputLength * hidden + " values, got " + input.length);
        }
        if (prefix.length != (long) layers * 2 * prefixLength * hidden) {
            throw new IllegalArgumentException("a prefix of " + prefixLength + " on " + layers + " layers needs "
                    + (long) layers * 2 * prefixLength * hidden + " values, got " + prefix.length);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeepPrompt p && p.inputLength == inputLength && p.prefixLength == prefixLength
                && Arrays.equals(p.input, input) && Arrays.equals(p.prefix, prefix);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * inputLength + prefixLength) + 31 * Arrays.hashCode(input) + Arrays.hashCode(prefix);
    }

    @Override
    public String toString() {
        return "DeepPrompt[input " + inputLength + ", prefix " + prefixLength + "]";
    }
}
