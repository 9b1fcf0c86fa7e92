package dev.fedbpt.engine.method;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A prompt the model scores rows with, as a method asks for it. The inference side turns each kind into model input;
 * the framework passes prompts through without looking inside.
 */
public sealed interface Prompt permits Prompt.Continuous, Prompt.Embeddings, Prompt.Tokens, Prompt.Deep {

    /** A fingerprint to compare runs bit for bit (result.json and metrics.jsonl record it). */
    String sha256();

    /** A point z of the low-dimensional search space; the model adds (or prepends) its projection A z. */
    record Continuous(double[] z) implements Prompt {
        public Continuous {
            if (z == null || z.length == 0) {
                throw new IllegalArgumentException("z must be a non-empty vector");
            }
        }

        /** Hex SHA-256 of z as big-endian IEEE 754 doubles. */
        @Override
        public String sha256() {
            return sha256(z);
        }

        public static String sha256(double[] values) {
            ByteBuffer buf = ByteBuffer.allocate(8 * values.length); // big-endian by default
            for (double v : values) {
                buf.putDouble(v);
            }
            return digest(buf.array());
        }
    }

    /**
     * Input embeddings themselves: T vectors of the model's hidden size, placed after the row's first token where
     * the model would put a projected prompt (prepend injection).
     */
    record Embeddings(float[][] vectors) implements Prompt {
        public Embeddings {
            if (vectors == null || vectors.length == 0) {
                throw new IllegalArgumentException("an embeddings prompt needs at least one vector");
            }
            for (float[] vector : vectors) {
                if (vector == null || vector.length != vectors[0].length || vector.length == 0) {
                    throw new IllegalArgumentException("the vectors of an embeddings prompt must share one length");
                }
            }
        }

        /** The vectors one after another (T x hidden floats), as the model takes them. */
        public float[] flattened() {
            int width = vectors[0].length;
            float[] out = new float[vectors.length * width];
            for (int t = 0; t < vectors.length; t++) {
                System.arraycopy(vectors[t], 0, out, t * width, width);
            }
            return out;
        }

        /** Hex SHA-256 of T, the width and the values as big-endian IEEE 754 floats. */
        @Override
        public String sha256() {
            float[] flat = flattened();
            ByteBuffer buf = ByteBuffer.allocate(8 + 4 * flat.length);
            buf.putInt(vectors.length).putInt(vectors[0].length);
            for (float v : flat) {
                buf.putFloat(v);
            }
            return digest(buf.array());
        }
    }

    /**
     * A sequence of vocabulary token ids, placed right after the row's first token ([CLS] / {@code <s>}) as BDPL
     * does; the model sees ordinary tokens.
     */
    record Tokens(int[] ids) implements Prompt {
        public Tokens {
            if (ids == null || ids.length == 0) {
                throw new IllegalArgumentException("a token prompt needs at least one token id");
            }
            for (int id : ids) {
                if (id < 0) {
                    throw new IllegalArgumentException("token ids must be >= 0, found " + id);
                }
            }
        }

        /** The row with the prompt's tokens after its first token. */
        public int[] insertInto(int[] row) {
            if (row.length == 0) {
                throw new IllegalArgumentException("an empty row has no first token to put the prompt after");
            }
            int[] out = new int[row.length + ids.length];
            out[0] = row[0];
            System.arraycopy(ids, 0, out, 1, ids.length);
            System.arraycopy(row, 1, out, 1 + ids.length, row.length - 1);
            return out;
        }

        /** Hex SHA-256 of the ids as big-endian 32-bit integers. */
        @Override
        public String sha256() {
            ByteBuffer buf = ByteBuffer.allocate(4 * ids.length);
            for (int id : ids) {
                buf.putInt(id);
            }
            return digest(buf.array());
        }
    }

    /**
     * The trainable prompt of a white-box (gradient) method, flat and row-major: a soft prompt of {@code inputLength}
     * input vectors inserted after the row's first token (FedPrompt), a P-tuning v2 prefix of {@code prefixLength}
     * key and value vectors on every layer (layers x 2 x n_p x hidden; keys at index 0 of the second axis), or both.
     * Only a model that can train (model.backend = pytorch) takes it.
     */
    record Deep(int inputLength, double[] input, int prefixLength, double[] prefix, int[] maskedPrefixLayers)
            implements Prompt {
        /**
         * @param maskedPrefixLayers layers whose prefix no query may attend to (an additive -10000 on its keys, as
         *                           FedPepTAO's code scores a global prefix without its unselected layers); null or
         *                           empty: none
         */
        public Deep {
            if (inputLength < 0 || prefixLength < 0) {
                throw new IllegalArgumentException("prompt lengths must be >= 0");
            }
            input = input == null ? new double[0] : input;
            prefix = prefix == null ? new double[0] : prefix;
            maskedPrefixLayers = maskedPrefixLayers == null ? new int[0] : maskedPrefixLayers.clone();
            if (maskedPrefixLayers.length > 0 && prefixLength == 0) {
                throw new IllegalArgumentException("only a prefix has layers to mask");
            }
            if ((inputLength == 0) != (input.length == 0) || (prefixLength == 0) != (prefix.length == 0)) {
                throw new IllegalArgumentException("a prompt length of 0 goes with no values, and only then");
            }
            if (inputLength == 0 && prefixLength == 0) {
                throw new IllegalArgumentException("a deep prompt needs a soft prompt, a prefix or both");
            }
        }

        /** A soft prompt of {@code length} input vectors. */
        public Deep(int inputLength, double[] input, int prefixLength, double[] prefix) {
            this(inputLength, input, prefixLength, prefix, null);
        }

        /** This prompt with the prefix of {@code layers} masked. */
        public Deep masking(int[] layers) {
            return new Deep(inputLength, input, prefixLength, prefix, layers);
        }

        public static Deep input(int length, double[] values) {
            return new Deep(length, values, 0, null);
        }

        /** A P-tuning v2 prefix of {@code length} key/value vectors on every layer. */
        public static Deep prefix(int length, double[] values) {
            return new Deep(0, null, length, values);
        }

        /**
         * @throws IllegalArgumentException when the value counts do not fit a model of {@code hidden} and
         *                                  {@code layers}
         */
        public void checkShape(int hidden, int layers) {
            if (input.length != (long) inputLength * hidden) {
                throw new IllegalArgumentException("a soft prompt of " + inputLength + " vectors needs "
                        + (long) inputLength * hidden + " values, got " + input.length);
            }
            if (prefix.length != (long) layers * 2 * prefixLength * hidden) {
                throw new IllegalArgumentException("a prefix of " + prefixLength + " on " + layers + " layers needs "
                        + (long) layers * 2 * prefixLength * hidden + " values, got " + prefix.length);
            }
            for (int l : maskedPrefixLayers) {
                if (l < 0 || l >= layers) {
                    throw new IllegalArgumentException("masked prefix layer " + l + " of a model of " + layers);
                }
            }
        }

        /** Hex SHA-256 of both lengths and every value as big-endian IEEE 754 doubles. */
        @Override
        public String sha256() {
            // the masked layers (4 bytes each) only when there are some: unmasked prompts keep their digests
            ByteBuffer buf = ByteBuffer.allocate(8 + 8 * (input.length + prefix.length)
                    + 4 * maskedPrefixLayers.length);
            buf.putInt(inputLength).putInt(prefixLength);
            for (double v : input) {
                buf.putDouble(v);
            }
            for (double v : prefix) {
                buf.putDouble(v);
            }
            for (int l : maskedPrefixLayers) {
                buf.putInt(l);
            }
            return digest(buf.array());
        }
    }

    private static String digest(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required on every Java platform", e);
        }
    }
}
