package dev.fedbpt.engine.gradient;

/**
 * AdamW as torch.optim.AdamW computes it (decoupled weight decay, bias-corrected moments, eps added to the corrected
 * root of the second moment), on a flat parameter vector. The moments live as long as the object: a client that
 * starts a fresh optimiser each round creates a new one.
 */
public final class AdamW {
    /** lr, weight decay, eps and the two betas. */
    public record Settings(double learningRate, double weightDecay, double eps, double beta1, double beta2) {}

    private final Settings s;
    private final double[] m;
    private final double[] v;
    private int steps;

    public AdamW(Settings settings, int size) {
        this.s = settings;
        this.m = new double[size];
        this.v = new double[size];
    }

    /** An optimiser that goes on from the moments and step count a client kept ({@link #firstMoment()} etc.). */
    public AdamW(Settings settings, double[] firstMoment, double[] secondMoment, int steps) {
        if (firstMoment.length != secondMoment.length || steps < 0) {
            throw new IllegalArgumentException("moments of " + firstMoment.length + " and " + secondMoment.length
                    + " values after " + steps + " steps");
        }
        this.s = settings;
        this.m = firstMoment.clone();
        this.v = secondMoment.clone();
        this.steps = steps;
    }

    public double[] firstMoment() {
        return m.clone();
    }

    public double[] secondMoment() {
        return v.clone();
    }

    public int steps() {
        return steps;
    }

    /** One step on {@code params} in place with gradient {@code g}. */
    void step(double[] params, double[] g) {
        if (g.length != params.length || params.length != m.length) {
            throw new IllegalArgumentException("AdamW over " + m.length + " values got " + params.length
                    + " parameters and " + g.length + " gradient values");
        }
        steps++;
        double bc1 = 1 - Math.pow(s.beta1(), steps);
        double bc2 = Math.sqrt(1 - Math.pow(s.beta2(), steps));
        double stepSize = s.learningRate() / bc1;
        double decay = 1 - s.learningRate() * s.weightDecay();
        for (int i = 0; i < params.length; i++) {
            params[i] *= decay;
            m[i] = s.beta1() * m[i] + (1 - s.beta1()) * g[i];
            v[i] = s.beta2() * v[i] + (1 - s.beta2()) * g[i] * g[i];
            params[i] -= stepSize * m[i] / (Math.sqrt(v[i]) / bc2 + s.eps());
        }
    }

    /**
     * Scales {@code g} in place so that its L2 norm is at most {@code maxNorm}, as torch.nn.utils.clip_grad_norm_
     * does (factor maxNorm / (norm + 1e-6), only when below 1); returns the norm before clipping.
     */
    static double clip(double[] g, double maxNorm) {
        double sum = 0;
        for (double x : g) sum += x * x;
        double norm = Math.sqrt(sum);
        double factor = maxNorm / (norm + 1e-6);
        if (factor < 1) {
            for (int i = 0; i < g.length; i++) g[i] *= factor;
        }
        return norm;
    }
}
