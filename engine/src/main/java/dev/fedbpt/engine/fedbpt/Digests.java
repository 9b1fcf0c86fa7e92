package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.CmaesState;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Fingerprints to compare runs bit for bit. */
public final class Digests {
    private Digests() {
    }

    /** Hex SHA-256 of the values as big-endian IEEE 754 doubles. */
    public static String sha256(double[] values) {
        if (values == null) {
            throw new IllegalArgumentException("values must not be null");
        }
        MessageDigest md = newDigest();
        ByteBuffer buf = ByteBuffer.allocate(8); // ByteBuffer is big-endian by default
        for (double v : values) {
            buf.clear();
            buf.putDouble(v);
            md.update(buf.array());
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** Hex SHA-256 over mean, sigma, C (row-major), p_sigma, p_c and the generation (as a double). */
    public static String sha256(CmaesState s) {
        int d = s.dimension();
        double[] all = new double[d + 1 + d * d + 2 * d + 1];
        int k = 0;
        for (double v : s.mean()) {
            all[k++] = v;
        }
        all[k++] = s.sigma();
        for (double[] row : s.covariance()) {
            for (double v : row) {
                all[k++] = v;
            }
        }
        for (double v : s.pathSigma()) {
            all[k++] = v;
        }
        for (double v : s.pathC()) {
            all[k++] = v;
        }
        all[k] = s.generation();
        return sha256(all);
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required on every Java platform", e);
        }
    }
}
