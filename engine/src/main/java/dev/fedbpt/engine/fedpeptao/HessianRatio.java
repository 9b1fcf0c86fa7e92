package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.gradient.PromptLayout;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.List;

/**
 * A device's part of the selection round (get_ratio.py): stochastic Lanczos ({@link Lanczos}) over the prefix's
 * Hessian at the global warm-up prefix, on the device's first minibatch, then the keep ratio of the spectrum
 * ({@link KeepRatio}). The code takes Hessian-vector products by double backpropagation; here each one is a central
 * difference of two gradients, (g(w + h v) - g(w - h v)) / 2h with h = {@code fedpeptao.hvp-step}. The loss is the
 * training loss on the rows' labels (the code passes the input ids as labels, which its masked-LM loss reads at the
 * mask position).
 */
final class HessianRatio implements ClientProcedure {
    private final PromptLayout layout;
    private final double[] w;
    private final List<int[]> rows;
    private final int[] labels;
    private final double h;
    private final ClientTask task;
    private final Lanczos lanczos;
    private double[] v;
    private double[] plus;
    private ComputeGradient pending;
    private int requests;
    private double lossSum;
    private int nonFinite;
    private Finished done;

    HessianRatio(PromptLayout layout, float[] params, List<int[]> rows, int[] labels, int steps, double h,
                 ClientTask task) {
        this.layout = layout;
        this.w = PromptLayout.widen(params);
        this.rows = rows;
        this.labels = labels;
        this.h = h;
        this.task = task;
        this.lanczos = new Lanczos(w.length, steps, Rng.of(task.seed(), Purpose.FEDPEPTAO_LANCZOS, task.clientId(),
                task.round()));
    }

    @Override
    public Step next() {
        if (done != null) return done;
        if (pending != null) return pending;
        if (v == null) {
            v = lanczos.pending();
            if (v == null) {
                double ratio = new KeepRatio(lanczos.eigenvalues(), lanczos.weights()).search();
                return finish(lossSum / requests, ratio);
            }
        }
        double sign = plus == null ? 1 : -1;
        double[] at = new double[w.length];
        for (int i = 0; i < at.length; i++) at[i] = w[i] + sign * h * v[i];
        pending = new ComputeGradient(requests, layout.prompt(at), rows, labels);
        return pending;
    }

    private Finished finish(double loss, double ratio) {
        done = new Finished(new RatioUpload(task.round(), task.clientId(), loss, task.data().size(), ratio),
                task.memory());
        return done;
    }

    @Override
    public void onGradient(Gradient gradient) {
        if (pending == null) throw new IllegalStateException("no gradient is pending");
        pending = null;
        requests++;
        double[] g = layout.flatten(gradient.input(), gradient.prefix());
        boolean finite = Double.isFinite(gradient.loss());
        for (double x : g) finite &= Double.isFinite(x);
        if (!finite) {
            nonFinite++;
            finish(Double.NaN, Double.NaN); // the server refuses it: a spectrum with a hole in it says nothing
            return;
        }
        lossSum += gradient.loss();
        if (plus == null) {
            plus = g;
            return;
        }
        double[] hv = new double[g.length];
        for (int i = 0; i < hv.length; i++) hv[i] = (plus[i] - g[i]) / (2 * h);
        plus = null;
        v = null;
        lanczos.tell(hv);
    }

    @Override
    public void onScores(float[][][] scores) {
        throw new IllegalStateException("no scores are pending: the selection round asks for gradients");
    }

    @Override
    public int nonFiniteCount() {
        return nonFinite;
    }
}
