package dev.fedbpt.engine.fedpeptao;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.EigenDecomposition;

/**
 * Algorithm 1's layer scores as run_getscore.py computes them ("ours"): for each layer but the last, the cosine
 * similarity matrix between a device's first minibatch's samples (each sample's hidden states of that layer
 * flattened; the model computes it, {@link dev.fedbpt.engine.method.ClientProcedure.LayerKernels}), its eigenvalues
 * plus 1e-5, and the score sum(log lambda + 1 / lambda); the consensus weighs each
 * device's scores by its share of the rows; the layers are ranked by consensus, highest first (the last layer, never
 * scored, keeps 0). The kernel is symmetric: a symmetric solver, with eigenvalues below 0 (rounding) taken as 0.
 */
final class LayerScores {
    static final double EPS = 1e-5;

    private LayerScores() {}

    /** sum(log(lambda + eps) + 1 / (lambda + eps)) over the kernel's eigenvalues. */
    static double score(double[][] kernel) {
        double[] lambdas = new EigenDecomposition(new Array2DRowRealMatrix(kernel, false)).getRealEigenvalues();
        double score = 0;
        for (double lambda : lambdas) {
            double l = Math.max(lambda, 0) + EPS;
            score += Math.log(l) + 1 / l;
        }
        return score;
    }

    /**
     * Layer ids ranked by consensus score, highest first: {@code scores.get(i)} are device i's scores of layers
     * 0..L-2, {@code rows[i]} its row count; the last layer scores 0. Ties keep the lower id first.
     */
    static int[] order(List<double[]> scores, int[] rows, int layers) {
        double total = 0;
        for (int n : rows) total += n;
        double[] consensus = new double[layers];
        for (int i = 0; i < scores.size(); i++) {
            double w = rows[i] / total;
            for (int l = 0; l < layers - 1; l++) consensus[l] += scores.get(i)[l] * w;
        }
        List<Integer> ids = new ArrayList<>();
        for (int l = 0; l < layers; l++) ids.add(l);
        ids.sort(Comparator.comparingDouble((Integer l) -> -consensus[l]));
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The first layers of {@code order} that make |SL| / L reach {@code ratio}, ascending. */
    static int[] select(int[] order, double ratio) {
        int count = 0;
        while (count < order.length && (double) count / order.length < ratio) count++;
        int[] chosen = java.util.Arrays.copyOf(order, Math.max(count, 1));
        java.util.Arrays.sort(chosen);
        return chosen;
    }
}
