package dev.fedbpt.engine.method;

/**
 * IEEE 754 binary16 ("fp16"), the precision DLS-EC's coefficients and FullDownload prompts travel in, and float16
 * uploads ({@link Precision#FLOAT16}). Java 17 has no
 * {@code Float.floatToFloat16}; this is the JDK 20 algorithm (round to nearest, ties to even; overflow to infinity).
 * Server and clients round with this one function, so both hold bit-identical prompts.
 */
public final class Fp16 {
    private Fp16() {}

    public static short fromFloat(float f) {
        int bits = Float.floatToRawIntBits(f);
        short sign = (short) ((bits & 0x8000_0000) >> 16);
        if (Float.isNaN(f)) {
            return (short) (sign | 0x7c00 | (bits & 0x007f_e000) >> 13 | (bits & 0x0000_1ff0) >> 4
                    | (bits & 0x0000_000f));
        }
        float abs = Math.abs(f);
        if (abs >= 0x1.ffcp15f + 0x0.002p15f) {
            return (short) (sign | 0x7c00);
        }
        if (abs <= 0x1.0p-24f * 0.5f) {
            return sign;
        }
        int exp = Math.getExponent(f);
        int shift = 0;
        int implicit = 0;
        if (exp < -14) {
            shift = -14 - exp;
            exp = -15;
            implicit = 0x0080_0000;
        }
        int significand = bits & 0x007f_ffff | implicit;
        short half = (short) (significand >> (13 + shift));
        int lsb = significand & (1 << 13 + shift);
        int round = significand & (1 << 12 + shift);
        int sticky = significand & ((1 << 12 + shift) - 1);
        if (round != 0 && (lsb | sticky) != 0) {
            half++;
        }
        return (short) (sign | (((exp + 15) << 10) + half));
    }

    public static float toFloat(short half) {
        int signBit = 0x8000 & half;
        int expBits = 0x7c00 & half;
        int significand = 0x03ff & half;
        float sign = signBit != 0 ? -1.0f : 1.0f;
        int exp = (expBits >> 10) - 15;
        if (exp == -15) {
            return sign * (0x1p-24f * significand);
        }
        if (exp == 16) {
            return significand == 0 ? sign * Float.POSITIVE_INFINITY
                    : Float.intBitsToFloat((signBit << 16) | 0x7f80_0000 | (significand << 13));
        }
        return Float.intBitsToFloat((signBit << 16) | ((exp + 127) << 23) | (significand << 13));
    }

    /** {@code value} as the receiver of its fp16 encoding reads it. */
    public static float round(double value) {
        return toFloat(fromFloat((float) value));
    }
}
