package dev.fedbpt.benchmarks;

import dev.fedbpt.engine.cmaes.Cmaes;
import dev.fedbpt.engine.cmaes.CmaesParameters;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.cmaes.Objectives;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.analysis.MultivariateFunction;
import org.apache.commons.math3.optim.InitialGuess;
import org.apache.commons.math3.optim.MaxEval;
import org.apache.commons.math3.optim.SimpleBounds;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.math3.optim.nonlinear.scalar.ObjectiveFunction;
import org.apache.commons.math3.optim.nonlinear.scalar.noderiv.CMAESOptimizer;

/**
 * Validates {@link Cmaes} against Commons Math's {@link CMAESOptimizer}: number of function evaluations until
 * f < 1e-8 is first seen, on sphere, ellipsoid (condition 1e6) and Rosenbrock, same population size and start.
 * A run that never reaches the target counts as +infinity evaluations.
 */
public final class CmaesBenchmark {
    public static final double TARGET = 1e-8;

    /**
     * Median evaluations to reach f < {@link #TARGET}, over the seeds: ours as FedBPT runs it
     * ({@link Cmaes.Variant#TUTORIAL}), ours with {@link Cmaes.Variant#MIRRORED_ACTIVE}, and Commons Math's.
     */
    public record Row(String function, int dim, double oursEvals, double oursMirroredActiveEvals,
                      double commonsMathEvals) {
    }

    private record Problem(String name, int dim, ToDoubleFunction<double[]> f, double start, double sigma0) {
    }

    private CmaesBenchmark() {
    }

    public static List<Row> run(int seeds) {
        return run(seeds, null, 0);
    }

    /** Only the rows whose function name matches (null = all) and dimension matches (0 = all). */
    public static List<Row> run(int seeds, String onlyFunction, int onlyDim) {
        if (seeds < 1) {
            throw new IllegalArgumentException("seeds must be >= 1, was " + seeds);
        }
        List<Row> rows = new ArrayList<>();
        int problemIndex = 0;
        for (Problem p : problems()) {
            if ((onlyFunction != null && !onlyFunction.equals(p.name())) || (onlyDim != 0 && onlyDim != p.dim())) {
                problemIndex++;
                continue;
            }
            double[] ours = new double[seeds];
            double[] mirroredActive = new double[seeds];
            double[] commons = new double[seeds];
            for (int s = 0; s < seeds; s++) {
                ours[s] = runOurs(p, s, problemIndex, Cmaes.Variant.TUTORIAL);
                mirroredActive[s] = runOurs(p, s, problemIndex, Cmaes.Variant.MIRRORED_ACTIVE);
                commons[s] = runCommons(p, s, problemIndex);
            }
            rows.add(new Row(p.name(), p.dim(), median(ours), median(mirroredActive), median(commons)));
            problemIndex++;
        }
        return rows;
    }

    private static List<Problem> problems() {
        List<Problem> list = new ArrayList<>();
        for (int dim : new int[] {10, 40}) {
            list.add(new Problem("sphere", dim, Objectives::sphere, 1.0, 1.0));
            list.add(new Problem("ellipsoid", dim, Objectives::ellipsoid, 1.0, 1.0));
            list.add(new Problem("rosenbrock", dim, Objectives::rosenbrock, 0.0, 0.5));
        }
        return list;
    }

    private static int maxEvaluations(int dim) {
        return 4000 * dim;
    }

    /** Thrown by the counting objective to stop an optimiser as soon as the target is reached. */
    private static final class Reached extends RuntimeException {
        Reached() {
            super(null, null, false, false);
        }
    }

    /** Counts evaluations; records the count when f < TARGET is first seen. */
    private static final class Counter implements MultivariateFunction {
        private final ToDoubleFunction<double[]> f;
        long evaluations;
        double reachedAt = Double.POSITIVE_INFINITY;

        Counter(ToDoubleFunction<double[]> f) {
            this.f = f;
        }

        @Override
        public double value(double[] x) {
            evaluations++;
            double v = f.applyAsDouble(x);
            if (v < TARGET && reachedAt == Double.POSITIVE_INFINITY) {
                reachedAt = evaluations;
                throw new Reached();
            }
            return v;
        }
    }

    private static double runOurs(Problem p, int seed, int problemIndex, Cmaes.Variant variant) {
        double[] x0 = new double[p.dim()];
        Arrays.fill(x0, p.start());
        int lambda = CmaesParameters.defaultLambda(p.dim());
        Cmaes es = new Cmaes(CmaesState.initial(x0, p.sigma0()), CmaesParameters.standard(p.dim(), lambda),
                variant);
        var rng = Rng.of(seed, Purpose.BENCHMARK, problemIndex, 0);
        Counter counter = new Counter(p.f());
        try {
            while (counter.evaluations < maxEvaluations(p.dim())) {
                double[][] xs = es.ask(rng);
                double[] fs = new double[xs.length];
                for (int k = 0; k < xs.length; k++) {
                    fs[k] = counter.value(xs[k]);
                }
                es.tell(xs, fs);
            }
        } catch (Reached reached) {
            // target hit
        } catch (IllegalStateException breakdown) {
            // counts as a failure (+infinity)
        }
        return counter.reachedAt;
    }

    private static double runCommons(Problem p, int seed, int problemIndex) {
        double[] x0 = new double[p.dim()];
        Arrays.fill(x0, p.start());
        double[] sigma = new double[p.dim()];
        Arrays.fill(sigma, p.sigma0());
        int lambda = CmaesParameters.defaultLambda(p.dim());
        int maxEval = maxEvaluations(p.dim());
        // isActiveCMA = true: Commons Math documents active CMA as its default update.
        CMAESOptimizer opt = new CMAESOptimizer(maxEval, TARGET, true, 0, 0,
                Rng.of(seed, Purpose.BENCHMARK, problemIndex, 1), false, null);
        Counter counter = new Counter(p.f());
        try {
            opt.optimize(new MaxEval(maxEval), new ObjectiveFunction(counter), GoalType.MINIMIZE,
                    new InitialGuess(x0), SimpleBounds.unbounded(p.dim()), new CMAESOptimizer.Sigma(sigma),
                    new CMAESOptimizer.PopulationSize(lambda));
        } catch (Reached reached) {
            // target hit
        } catch (RuntimeException other) {
            // TooManyEvaluations or similar: counts as a failure (+infinity) unless already reached
        }
        return counter.reachedAt;
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
    }
}
