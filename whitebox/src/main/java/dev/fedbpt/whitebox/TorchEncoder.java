package dev.fedbpt.whitebox;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.norm.LayerNorm;
import dev.fedbpt.inference.EncoderWeights;
import java.util.ArrayList;
import java.util.List;

/**
 * A BERT-family encoder rebuilt on DJL's PyTorch engine from {@link EncoderWeights}, so that gradients flow through
 * it. The arithmetic is the ONNX export's: post-norm layers, the export's GELU (erf, or Google's tanh form), an
 * additive mask on padded keys, and its masked-LM head when it has one. The weights are frozen (no gradient); callers
 * mark their own prompt arrays as needing one.
 *
 * <p>Two kinds of prompt reach it. An input prompt is already part of {@code inputsEmbeds}. A prefix (P-tuning v2) is
 * an array [layers, 2, n_p, hidden]: at layer l, n_p key vectors and n_p value vectors are put in front of that
 * layer's keys and values (split into heads like the keys), and every query may attend to them. As in HuggingFace's
 * BERT with {@code past_key_values}, the tokens' position ids then start at n_p.
 */
final class TorchEncoder implements AutoCloseable {
    private final EncoderWeights w;
    private final NDManager manager;
    private final DataType type;
    private final NDArray positions;
    private final NDArray tokenType;
    private final NDArray embGamma;
    private final NDArray embBeta;
    private final List<NDArray[]> layers = new ArrayList<>();
    /** The masked-LM head's transform: dense weight, bias, LayerNorm gamma, beta; null without one. */
    private final NDArray[] mlmTransform;

    private TorchEncoder(EncoderWeights w, NDManager manager, DataType type) {
        this.w = w;
        this.manager = manager;
        this.type = type;
        int h = w.hiddenSize();
        positions = array(w.positionEmbeddings(), new Shape(w.maxPositions(), h));
        tokenType = array(w.tokenTypeEmbedding(), new Shape(h));
        embGamma = array(w.embeddingNorm().gamma(), new Shape(h));
        embBeta = array(w.embeddingNorm().beta(), new Shape(h));
        for (EncoderWeights.Layer l : w.layers()) {
            List<NDArray> a = new ArrayList<>();
            for (EncoderWeights.Linear lin : List.of(l.query(), l.key(), l.value(), l.attentionOutput())) {
                a.add(array(lin.weight(), new Shape(lin.in(), lin.out())));
                a.add(array(lin.bias(), new Shape(lin.out())));
            }
            a.add(array(l.attentionNorm().gamma(), new Shape(h)));
            a.add(array(l.attentionNorm().beta(), new Shape(h)));
            for (EncoderWeights.Linear lin : List.of(l.intermediate(), l.output())) {
                a.add(array(lin.weight(), new Shape(lin.in(), lin.out())));
                a.add(array(lin.bias(), new Shape(lin.out())));
            }
            a.add(array(l.outputNorm().gamma(), new Shape(h)));
            a.add(array(l.outputNorm().beta(), new Shape(h)));
            layers.add(a.toArray(NDArray[]::new));
        }
        EncoderWeights.MlmHead head = w.mlmHead();
        mlmTransform = head == null ? null : new NDArray[] {
                array(head.transform().weight(), new Shape(h, h)), array(head.transform().bias(), new Shape(h)),
                array(head.norm().gamma(), new Shape(h)), array(head.norm().beta(), new Shape(h))};
    }

    /**
     * @param type {@link DataType#FLOAT32} (as the ONNX file) or {@link DataType#FLOAT64} (for gradient checks by
     *             finite differences, where float32's rounding would swamp the difference quotient)
     */
    static TorchEncoder load(EncoderWeights weights, DataType type) {
        return new TorchEncoder(weights, NDManager.newBaseManager(Device.cpu(), "PyTorch"), type);
    }

    EncoderWeights weights() {
        return w;
    }

    DataType type() {
        return type;
    }

    /** The manager that owns the weights; callers open sub-managers of it for one call's arrays. */
    NDManager manager() {
        return manager;
    }

    /**
     * @param inputsEmbeds [B, S, H] word embeddings of the rows (input prompts included)
     * @param mask         [B, S] 1 for the rows' positions, 0 for padding
     * @param prefix       [L, 2, n_p, H] prefix keys (index 0) and values (index 1) per layer, or null
     * @return the last hidden state [B, S, H]
     */
    NDArray forward(NDArray inputsEmbeds, NDArray mask, NDArray prefix) {
        return forward(inputsEmbeds, mask, prefix, new int[0]);
    }

    /** @param maskedPrefixLayers layers whose prefix keys no query attends to (-mask value on them) */
    NDArray forward(NDArray inputsEmbeds, NDArray mask, NDArray prefix, int[] maskedPrefixLayers) {
        List<NDArray> all = forwardLayers(inputsEmbeds, mask, prefix, maskedPrefixLayers);
        return all.get(all.size() - 1);
    }

    /** Every layer's output [B, S, H], first layer first (HuggingFace's hidden_states[1:]). */
    List<NDArray> forwardLayers(NDArray inputsEmbeds, NDArray mask, NDArray prefix) {
        return forwardLayers(inputsEmbeds, mask, prefix, new int[0]);
    }

    List<NDArray> forwardLayers(NDArray inputsEmbeds, NDArray mask, NDArray prefix, int[] maskedPrefixLayers) {
        long b = inputsEmbeds.getShape().get(0);
        long s = inputsEmbeds.getShape().get(1);
        int h = w.hiddenSize();
        int heads = w.heads();
        int hd = h / heads;
        long np = prefix == null ? 0 : prefix.getShape().get(2);
        if (np + s > w.maxPositions()) {
            throw new IllegalArgumentException(np + " prefix and " + s + " row positions exceed the model's "
                    + w.maxPositions());
        }
        NDManager call = inputsEmbeds.getManager();
        NDArray x = inputsEmbeds.add(positions.get(call, new NDIndex(np + ":" + (np + s)))).add(tokenType);
        x = norm(x, embGamma, embBeta);
        // additive mask over keys: [B, 1, 1, np + S]; prefix keys are always visible
        NDArray keyMask = mask.toType(type, false);
        if (np > 0) keyMask = call.ones(new Shape(b, np), type).concat(keyMask, 1);
        NDArray additive = keyMask.neg().add(scalar(call, 1)).mul(scalar(call, w.maskValue()))
                .reshape(b, 1, 1, np + s);
        // a masked layer's prefix keys get the mask value too, as FedPepTAO's code hides unselected layers
        NDArray hidingPrefix = maskedPrefixLayers.length == 0 ? null : call.ones(new Shape(b, np), type)
                .concat(call.zeros(new Shape(b, s), type), 1).mul(scalar(call, w.maskValue()))
                .reshape(b, 1, 1, np + s).add(additive);
        NDArray scale = scalar(call, 1.0 / Math.sqrt(hd));
        List<NDArray> outputs = new ArrayList<>(layers.size());
        for (int l = 0; l < layers.size(); l++) {
            NDArray[] p = layers.get(l);
            NDArray q = heads(x.matMul(p[0]).add(p[1]), b, s, heads, hd);
            NDArray k = heads(x.matMul(p[2]).add(p[3]), b, s, heads, hd);
            NDArray v = heads(x.matMul(p[4]).add(p[5]), b, s, heads, hd);
            if (np > 0) {
                NDArray pk = prefix.get(l, 0).reshape(1, np, heads, hd).transpose(0, 2, 1, 3)
                        .broadcast(new Shape(b, heads, np, hd));
                NDArray pv = prefix.get(l, 1).reshape(1, np, heads, hd).transpose(0, 2, 1, 3)
                        .broadcast(new Shape(b, heads, np, hd));
                k = pk.concat(k, 2);
                v = pv.concat(v, 2);
            }
            NDArray keys = hidingPrefix != null && contains(maskedPrefixLayers, l) ? hidingPrefix : additive;
            NDArray att = q.matMul(k.transpose(0, 1, 3, 2)).mul(scale).add(keys).softmax(-1);
            NDArray ctx = att.matMul(v).transpose(0, 2, 1, 3).reshape(b, s, h);
            NDArray a = norm(ctx.matMul(p[6]).add(p[7]).add(x), p[8], p[9]);
            NDArray inter = activation(a.matMul(p[10]).add(p[11]), call);
            x = norm(inter.matMul(p[12]).add(p[13]).add(a), p[14], p[15]);
            outputs.add(x);
        }
        return outputs;
    }

    private static boolean contains(int[] values, int value) {
        for (int v : values) {
            if (v == value) return true;
        }
        return false;
    }

    /** [B, S, H] → [B, heads, S, head size]. */
    private static NDArray heads(NDArray x, long b, long s, int heads, int hd) {
        return x.reshape(b, s, heads, hd).transpose(0, 2, 1, 3);
    }

    /**
     * The masked-LM head's logits of some vocabulary entries: {@code hidden} [B, H] (the rows' states at [MASK])
     * through the head's dense layer, activation and LayerNorm, then times {@code decoderT} [H, k] (the tied word
     * embeddings of the k entries, transposed) plus {@code bias} [k] (their output biases).
     */
    NDArray mlmLogits(NDArray hidden, NDArray decoderT, NDArray bias) {
        if (mlmTransform == null) {
            throw new IllegalStateException(w.name() + " has no masked-LM head");
        }
        NDManager call = hidden.getManager();
        NDArray t = activation(hidden.matMul(mlmTransform[0]).add(mlmTransform[1]), call);
        return norm(t, mlmTransform[2], mlmTransform[3]).matMul(decoderT).add(bias);
    }

    /** The export's GELU. */
    private NDArray activation(NDArray x, NDManager call) {
        return switch (w.activation()) {
            // x · 0.5 · (1 + erf(x / sqrt 2))
            case GELU_ERF -> x.mul(x.div(scalar(call, Math.sqrt(2.0))).erf().add(scalar(call, 1)))
                    .mul(scalar(call, 0.5));
            // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), in the order of the TF graph's ops
            case GELU_TANH -> {
                NDArray inner = x.add(x.mul(x).mul(x).mul(scalar(call, 0.044715)));
                NDArray cdf = inner.mul(scalar(call, Math.sqrt(2 / Math.PI))).tanh().add(scalar(call, 1))
                        .mul(scalar(call, 0.5));
                yield x.mul(cdf);
            }
        };
    }

    /**
     * {@code v} as a 0-dim tensor (float64, so that torch casts it to the operand's type as it casts a Python
     * number) in memory libtorch owns, attached to {@code call}. Never DJL's {@code add/mul/div(Number)}: they wrap
     * the number in a Java direct buffer and free it as soon as the forward op returns, while autograd keeps that
     * tensor for the backward pass, which then reads freed memory. Once a garbage collection had run in between,
     * gradients came out NaN or off in their last bits (WhiteBoxModelTest's collector test).
     */
    static NDArray scalar(NDManager call, double v) {
        try (NDArray wrapped = call.create(v)) {
            return wrapped.duplicate();
        }
    }

    private NDArray norm(NDArray x, NDArray gamma, NDArray beta) {
        return LayerNorm.layerNorm(x, new Shape(w.hiddenSize()), gamma, beta, w.layerNormEps()).singletonOrThrow();
    }

    NDArray array(float[] data, Shape shape) {
        return owned(manager.create(data, shape), type);
    }

    /**
     * {@code a} as {@code type} in memory libtorch allocated itself, never a view of the Java-side buffer it was
     * created from: that buffer is freed with DJL's array object, while autograd may keep the tensor until the
     * backward pass (as with {@link #scalar}); and libtorch's allocator aligns what it hands out the same way every
     * time, where a Java buffer's address follows whatever the JVM allocated before it.
     */
    static NDArray owned(NDArray a, DataType type) {
        NDArray typed = a.toType(type, false);
        return typed == a ? a.duplicate() : typed;
    }

    @Override
    public void close() {
        manager.close();
    }
}
