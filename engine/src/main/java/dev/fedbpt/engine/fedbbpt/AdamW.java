package dev.fedbpt.engine.fedbbpt;

/**
 * One step of torch.optim.AdamW as BDPL runs it (torch 1.7.1 per BDPL's install.sh; defaults betas (0.9, 0.999),
 * eps 1e-8, no amsgrad; run_glue_discrete_LM.py:550-553 sets only lr and weight_decay), for a step count t counted
 * from 1:
 * <pre>
 *   theta *= 1 - lr * wd                       (decoupled weight decay, before the Adam update)
 *   m      = beta1 m + (1 - beta1) g
 *   v      = beta2 v + (1 - beta2) g g
 *   theta -= (lr / (1 - beta1^t)) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
 * </pre>
 * in double where BDPL's tensors are float32.
 */
public final class AdamW {
    public static final double BETA1 = 0.9;
    public static final double BETA2 = 0.999;
    public static final double EPSILON = 1e-8;

    private AdamW() {}

    /** Updates theta, m and v in place; {@code step} is the step being taken (1 for the first). */
    public static void step(double[][] theta, double[][] grad, double[][] m, double[][] v, long step,
                            double learningRate, double weightDecay) {
        if (step < 1) {
            throw new IllegalArgumentException("step counts from 1, was " + step);
        }
        double decay = 1 - learningRate * weightDecay;
        double biasCorrection1 = 1 - Math.pow(BETA1, step);
        double biasCorrection2 = 1 - Math.pow(BETA2, step);
        double stepSize = learningRate / biasCorrection1;
        double sqrtBias2 = Math.sqrt(biasCorrection2);
        for (int i = 0; i < theta.length; i++) {
            double[] p = theta[i];
            double[] g = grad[i];
            double[] mi = m[i];
            double[] vi = v[i];
            if (g.length != p.length || mi.length != p.length || vi.length != p.length) {
                throw new IllegalArgumentException("row " + i + " differs in length between theta, grad and moments");
            }
            for (int j = 0; j < p.length; j++) {
                p[j] *= decay;
                mi[j] = mi[j] * BETA1 + (1 - BETA1) * g[j];
                vi[j] = vi[j] * BETA2 + (1 - BETA2) * g[j] * g[j];
                double denom = Math.sqrt(vi[j]) / sqrtBias2 + EPSILON;
                p[j] += -stepSize * (mi[j] / denom);
            }
        }
    }
}
