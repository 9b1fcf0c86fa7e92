package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.gradient.LocalTraining;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.Gradient;
import java.util.List;
import java.util.function.Function;

/**
 * A device's warm-up round: first its layer scores (run_getscore.py: the model without a prompt on the device's
 * first minibatch), then its local training; the upload carries both.
 */
final class ScoredTraining implements ClientProcedure {
    private final LayerKernels request;
    private final Function<double[], LocalTraining> training;
    private LocalTraining local;

    /** @param training the local training, given the device's layer scores (which its upload carries) */
    ScoredTraining(List<int[]> firstBatch, Function<double[], LocalTraining> training) {
        this.request = new LayerKernels(0, firstBatch);
        this.training = training;
    }

    @Override
    public Step next() {
        return local == null ? request : local.next();
    }

    @Override
    public void onLayerKernels(double[][][] kernels) {
        if (local != null) throw new IllegalStateException("no layer kernels are pending");
        // the last layer is not scored (run_getscore.py's range(num_hidden_layers - 1))
        double[] scores = new double[kernels.length - 1];
        for (int l = 0; l < scores.length; l++) scores[l] = LayerScores.score(kernels[l]);
        local = training.apply(scores);
    }

    @Override
    public void onGradient(Gradient gradient) {
        if (local == null) throw new IllegalStateException("no gradient is pending");
        local.onGradient(gradient);
    }

    @Override
    public void onScores(float[][][] scores) {
        throw new IllegalStateException("no scores are pending: a warm-up round asks for kernels and gradients");
    }

    @Override
    public int nonFiniteCount() {
        return local == null ? 0 : local.nonFiniteCount();
    }
}
