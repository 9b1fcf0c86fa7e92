package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.Fp16;
import java.nio.ByteBuffer;

/**
 * The messages DLS-EC's paper counts, encoded as they would travel: an upload is one 16-bit token id per position
 * (SKIP for an unchanged one); a compressed download is, per position, Phi 16-bit ids and Phi fp16 coefficients; a
 * FullDownload is T x D fp16 values. The round's bit counts are the lengths of these encodings, nothing computed
 * beside them. The sizes (T and Phi or D) are fixed by the experiment's settings, which both ends hold, so the
 * messages carry no header.
 */
final class UpdateWire {
    /** The id an upload sends for a position its search left unchanged (16 bits of ones; no token has it). */
    static final int SKIP_ON_WIRE = 0xFFFF;

    private UpdateWire() {}

    /** @param ids token ids, {@link SearchUpload#SKIP} for unchanged positions */
    static byte[] upload(int[] ids) {
        ByteBuffer out = ByteBuffer.allocate(2 * ids.length);
        for (int id : ids) {
            out.putShort((short) (id == SearchUpload.SKIP ? SKIP_ON_WIRE : id));
        }
        return out.array();
    }

    static int[] readUpload(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int[] ids = new int[bytes.length / 2];
        for (int t = 0; t < ids.length; t++) {
            int id = Short.toUnsignedInt(in.getShort());
            ids[t] = id == SKIP_ON_WIRE ? SearchUpload.SKIP : id;
        }
        return ids;
    }

    static byte[] download(Update update) {
        if (update instanceof Update.Compressed c) {
            int phi = c.tokens()[0].length;
            ByteBuffer out = ByteBuffer.allocate(c.tokens().length * phi * 4);
            for (int t = 0; t < c.tokens().length; t++) {
                for (int m = 0; m < phi; m++) {
                    out.putShort((short) c.tokens()[t][m]);
                }
                for (int m = 0; m < phi; m++) {
                    out.putShort(Fp16.fromFloat(c.coefficients()[t][m]));
                }
            }
            return out.array();
        }
        float[][] prompt = ((Update.Full) update).prompt();
        ByteBuffer out = ByteBuffer.allocate(prompt.length * prompt[0].length * 2);
        for (float[] row : prompt) {
            for (float v : row) {
                out.putShort(Fp16.fromFloat(v));
            }
        }
        return out.array();
    }

    /** Reads {@link #download}'s bytes back, given the sizes both ends know. */
    static Update readDownload(byte[] bytes, int promptLength, int phi, int hidden, boolean compressed) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        if (compressed) {
            int[][] tokens = new int[promptLength][phi];
            float[][] coefficients = new float[promptLength][phi];
            for (int t = 0; t < promptLength; t++) {
                for (int m = 0; m < phi; m++) {
                    tokens[t][m] = Short.toUnsignedInt(in.getShort());
                }
                for (int m = 0; m < phi; m++) {
                    coefficients[t][m] = Fp16.toFloat(in.getShort());
                }
            }
            return new Update.Compressed(tokens, coefficients);
        }
        float[][] prompt = new float[promptLength][hidden];
        for (float[] row : prompt) {
            for (int j = 0; j < hidden; j++) {
                row[j] = Fp16.toFloat(in.getShort());
            }
        }
        return new Update.Full(prompt);
    }
}
