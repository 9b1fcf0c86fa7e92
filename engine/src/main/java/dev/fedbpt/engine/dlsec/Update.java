package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.TokenEmbeddings;

/**
 * What the server broadcasts after a round (the paper's download), from which a client holding the previous prompt
 * P'_prev rebuilds the new one bit for bit.
 */
sealed interface Update permits Update.Compressed, Update.Full {

    /** The new prompt from the previous one. */
    float[][] apply(float[][] previous, TokenEmbeddings embeddings);

    /** Eq. 11 per position: Phi token ids and their fp16 coefficients. */
    record Compressed(int[][] tokens, float[][] coefficients) implements Update {
        @Override
        public float[][] apply(float[][] previous, TokenEmbeddings embeddings) {
            float[][] next = new float[previous.length][];
            for (int t = 0; t < previous.length; t++) {
                next[t] = position(previous[t], tokens[t], coefficients[t], embeddings);
            }
            return next;
        }

        /** P'[t] = P'_prev[t] + sum_j xf_j E[I_j], summed in double in the order sent, then rounded to float. */
        static float[] position(float[] previous, int[] tokens, float[] coefficients, TokenEmbeddings embeddings) {
            float[] out = new float[previous.length];
            for (int j = 0; j < previous.length; j++) {
                double value = previous[j];
                for (int m = 0; m < tokens.length; m++) {
                    value += (double) coefficients[m] * embeddings.get(tokens[m], j);
                }
                out[j] = (float) value;
            }
            return out;
        }
    }

    /** FullDownload: the averaged prompt itself, in fp16. */
    record Full(float[][] prompt) implements Update {
        @Override
        public float[][] apply(float[][] previous, TokenEmbeddings embeddings) {
            float[][] copy = new float[prompt.length][];
            for (int t = 0; t < prompt.length; t++) {
                copy[t] = prompt[t].clone();
            }
            return copy;
        }
    }
}
