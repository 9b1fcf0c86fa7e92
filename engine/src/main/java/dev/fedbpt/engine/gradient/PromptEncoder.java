package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * P-tuning's prompt encoder, as FedBPT's code builds FedP-tuning (RyanAIResearch/FED_BBT, models/prompt_encoder.py,
 * FedPrompt.py --p_tuning 1): an Embedding(T, H), a two-layer bidirectional LSTM of hidden size H/2 (batch first, no
 * dropout between the layers: lstm_dropout 0.0) and an MLP Linear(H, H), ReLU, Linear(H, H). Its output, T x H, is the
 * input-layer soft prompt; all of the encoder's parameters are trained and averaged. At RoBERTa-large's H = 1024 and
 * T = 50 that is 14,749,696 parameters, the "15M" of FedBPT's Table 1 (and 235,159,552 at Llama-2's 4096, its
 * Table 3).
 *
 * <p>The parameters are one flat vector: the embedding (T x H, row-major), then for layer 0 and 1, direction forward
 * then backward, PyTorch's W_ih (4h x in), W_hh (4h x h), b_ih (4h), b_hh (4h) with the gates in PyTorch's order
 * (input, forget, cell, output), then the MLP's W1 (H x H), b1, W2, b2. {@link #forward} computes the prompt and keeps
 * what {@link Pass#backward} needs to turn the prompt's gradient into the parameters' (backpropagation through time,
 * in double).
 */
public final class PromptEncoder {
    private final int length;
    private final int hidden;
    private final int half;

    public PromptEncoder(int length, int hidden) {
        if (length < 1 || hidden < 2 || hidden % 2 != 0) {
            throw new IllegalArgumentException("a prompt encoder needs T >= 1 and an even hidden size, got T = " + length
                    + ", H = " + hidden);
        }
        this.length = length;
        this.hidden = hidden;
        this.half = hidden / 2;
    }

    public int length() {
        return length;
    }

    public int hidden() {
        return hidden;
    }

    /** The encoder's trainable parameters for T prompt vectors of size H. */
    public static long parameterCount(int length, int hidden) {
        long h = hidden / 2;
        long lstmDirection = 4 * h * hidden + 4 * h * h + 8 * h; // both layers take H inputs (layer 1: 2h = H)
        return (long) length * hidden + 2 * 2 * lstmDirection + 2 * ((long) hidden * hidden + hidden);
    }

    public int size() {
        return Math.toIntExact(parameterCount(length, hidden));
    }

    /**
     * PyTorch's default initialisation, drawn once from the experiment seed: the Embedding N(0, 1); every LSTM weight
     * and bias U(-1/sqrt(h), 1/sqrt(h)); each Linear's weight and bias U(-1/sqrt(fan_in), 1/sqrt(fan_in)) (its
     * kaiming_uniform with a = sqrt(5) has that bound).
     */
    public float[] initialParameters(long seed) {
        RandomGenerator rng = Rng.of(seed, Purpose.PROMPT_ENCODER_INIT);
        float[] params = new float[size()];
        int at = 0;
        for (; at < length * hidden; at++) params[at] = (float) rng.nextGaussian();
        double lstmBound = 1 / Math.sqrt(half);
        int lstmEnd = at + 4 * lstmDirectionSize();
        for (; at < lstmEnd; at++) params[at] = (float) uniform(rng, lstmBound);
        double linearBound = 1 / Math.sqrt(hidden);
        for (; at < params.length; at++) params[at] = (float) uniform(rng, linearBound);
        return params;
    }

    private static double uniform(RandomGenerator rng, double bound) {
        return (2 * rng.nextDouble() - 1) * bound;
    }

    private int lstmDirectionSize() {
        return 4 * half * hidden + 4 * half * half + 8 * half;
    }

    /** The prompt for {@code params}, with what the backward pass needs. */
    public Pass forward(double[] params) {
        if (params.length != size()) {
            throw new IllegalArgumentException(params.length + " parameters for an encoder of " + size());
        }
        return new Pass(params);
    }

    /** One forward pass: the prompt (T x H, row-major) and the activations kept for {@link #backward}. */
    public final class Pass {
        private final double[] params;
        private final double[][] layerInput = new double[3][]; // embedding, layer 0's output, layer 1's output
        private final Direction[][] directions = new Direction[2][2];
        private final double[] preRelu;
        private final double[] activated;
        private final double[] prompt;

        private Pass(double[] params) {
            this.params = params;
            double[] x = new double[length * hidden];
            System.arraycopy(params, 0, x, 0, x.length);
            layerInput[0] = x;
            for (int layer = 0; layer < 2; layer++) {
                double[] out = new double[length * hidden];
                for (int dir = 0; dir < 2; dir++) {
                    directions[layer][dir] = new Direction(lstmOffset(layer, dir), dir == 1);
                    directions[layer][dir].forward(layerInput[layer], out, dir * half);
                }
                layerInput[layer + 1] = out;
            }
            int mlp = lstmOffset(2, 0);
            preRelu = linear(layerInput[2], mlp);
            activated = new double[preRelu.length];
            for (int i = 0; i < activated.length; i++) activated[i] = Math.max(preRelu[i], 0);
            prompt = linear(activated, mlp + hidden * hidden + hidden);
        }

        public double[] prompt() {
            return prompt;
        }

        /** The gradient with respect to the parameters, given the loss's gradient with respect to the prompt. */
        public double[] backward(double[] promptGradient) {
            if (promptGradient.length != prompt.length) {
                throw new IllegalArgumentException(promptGradient.length + " values for a prompt of " + prompt.length);
            }
            double[] grad = new double[params.length];
            int w1 = lstmOffset(2, 0);
            int w2 = w1 + hidden * hidden + hidden;
            double[] dActivated = linearBackward(activated, promptGradient, w2, grad);
            for (int i = 0; i < dActivated.length; i++) {
                if (preRelu[i] <= 0) dActivated[i] = 0;
            }
            double[] dOut = linearBackward(layerInput[2], dActivated, w1, grad);
            for (int layer = 1; layer >= 0; layer--) {
                double[] dIn = new double[length * hidden];
                for (int dir = 0; dir < 2; dir++) {
                    directions[layer][dir].backward(layerInput[layer], dOut, dir * half, dIn, grad);
                }
                dOut = dIn;
            }
            System.arraycopy(dOut, 0, grad, 0, dOut.length);
            return grad;
        }

        /** y_t = W x_t + b for every row t, W (H x H) at {@code at}, b right after it. */
        private double[] linear(double[] x, int at) {
            double[] y = new double[length * hidden];
            for (int t = 0; t < length; t++) {
                for (int r = 0; r < hidden; r++) {
                    double sum = params[at + hidden * hidden + r];
                    int row = at + r * hidden;
                    for (int c = 0; c < hidden; c++) sum += params[row + c] * x[t * hidden + c];
                    y[t * hidden + r] = sum;
                }
            }
            return y;
        }

        /** Adds dW and db of {@link #linear} at {@code at} into {@code grad}; returns dx. */
        private double[] linearBackward(double[] x, double[] dy, int at, double[] grad) {
            double[] dx = new double[x.length];
            for (int t = 0; t < length; t++) {
                for (int r = 0; r < hidden; r++) {
                    double g = dy[t * hidden + r];
                    if (g == 0) continue;
                    grad[at + hidden * hidden + r] += g;
                    int row = at + r * hidden;
                    for (int c = 0; c < hidden; c++) {
                        grad[row + c] += g * x[t * hidden + c];
                        dx[t * hidden + c] += g * params[row + c];
                    }
                }
            }
            return dx;
        }

        /** One direction of one LSTM layer: its gates and cells at every step, for the backward pass. */
        private final class Direction {
            private final int wih;
            private final int whh;
            private final int bih;
            private final int bhh;
            private final boolean reversed;
            /** Per step t (in time order): the gates i, f, g, o after their nonlinearity, and the cell c_t. */
            private final double[][] gates = new double[length][];
            private final double[][] cells = new double[length][];
            private final double[][] outputs = new double[length][];

            Direction(int offset, boolean reversed) {
                this.wih = offset;
                this.whh = wih + 4 * half * hidden;
                this.bih = whh + 4 * half * half;
                this.bhh = bih + 4 * half;
                this.reversed = reversed;
            }

            private int step(int k) {
                return reversed ? length - 1 - k : k;
            }

            void forward(double[] x, double[] out, int column) {
                double[] h = new double[half];
                double[] c = new double[half];
                for (int k = 0; k < length; k++) {
                    int t = step(k);
                    double[] a = new double[4 * half];
                    for (int r = 0; r < 4 * half; r++) {
                        double sum = params[bih + r] + params[bhh + r];
                        int rowX = wih + r * hidden;
                        for (int j = 0; j < hidden; j++) sum += params[rowX + j] * x[t * hidden + j];
                        int rowH = whh + r * half;
                        for (int j = 0; j < half; j++) sum += params[rowH + j] * h[j];
                        a[r] = sum;
                    }
                    double[] next = new double[half];
                    double[] hNext = new double[half];
                    for (int j = 0; j < half; j++) {
                        a[j] = sigmoid(a[j]);
                        a[half + j] = sigmoid(a[half + j]);
                        a[2 * half + j] = Math.tanh(a[2 * half + j]);
                        a[3 * half + j] = sigmoid(a[3 * half + j]);
                        next[j] = a[half + j] * c[j] + a[j] * a[2 * half + j];
                        hNext[j] = a[3 * half + j] * Math.tanh(next[j]);
                        out[t * hidden + column + j] = hNext[j];
                    }
                    gates[t] = a;
                    cells[t] = next;
                    outputs[t] = hNext;
                    c = next;
                    h = hNext;
                }
            }

            /** Adds this direction's parameter gradients into {@code grad} and its input gradient into dx. */
            void backward(double[] x, double[] dOut, int column, double[] dx, double[] grad) {
                double[] dhNext = new double[half];
                double[] dcNext = new double[half];
                double[] zero = new double[half];
                for (int k = length - 1; k >= 0; k--) {
                    int t = step(k);
                    double[] a = gates[t];
                    double[] previousCell = k == 0 ? zero : cells[step(k - 1)];
                    double[] previousOutput = k == 0 ? zero : outputs[step(k - 1)];
                    double[] dA = new double[4 * half];
                    for (int j = 0; j < half; j++) {
                        double dh = dOut[t * hidden + column + j] + dhNext[j];
                        double tanhC = Math.tanh(cells[t][j]);
                        double i = a[j];
                        double f = a[half + j];
                        double g = a[2 * half + j];
                        double o = a[3 * half + j];
                        double dc = dcNext[j] + dh * o * (1 - tanhC * tanhC);
                        dA[j] = dc * g * i * (1 - i);
                        dA[half + j] = dc * previousCell[j] * f * (1 - f);
                        dA[2 * half + j] = dc * i * (1 - g * g);
                        dA[3 * half + j] = dh * tanhC * o * (1 - o);
                        dcNext[j] = dc * f;
                    }
                    double[] dh = new double[half];
                    for (int r = 0; r < 4 * half; r++) {
                        double g = dA[r];
                        if (g == 0) continue;
                        grad[bih + r] += g;
                        grad[bhh + r] += g;
                        int rowX = wih + r * hidden;
                        for (int j = 0; j < hidden; j++) {
                            grad[rowX + j] += g * x[t * hidden + j];
                            dx[t * hidden + j] += g * params[rowX + j];
                        }
                        int rowH = whh + r * half;
                        for (int j = 0; j < half; j++) {
                            grad[rowH + j] += g * previousOutput[j];
                            dh[j] += g * params[rowH + j];
                        }
                    }
                    dhNext = dh;
                }
            }
        }
    }

    /** Where layer {@code layer}'s direction {@code dir} starts; layer 2 is the MLP. */
    private int lstmOffset(int layer, int dir) {
        return length * hidden + (layer * 2 + dir) * lstmDirectionSize();
    }

    private static double sigmoid(double v) {
        return 1 / (1 + Math.exp(-v));
    }
}
