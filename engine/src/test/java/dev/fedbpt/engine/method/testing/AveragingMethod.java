package dev.fedbpt.engine.method.testing;

import dev.fedbpt.engine.method.ClientMemory;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.PromptScorer;
import dev.fedbpt.engine.method.Upload;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A one-parameter federated method for framework tests (shipped in the engine's test-jar), so that actor tests need
 * not run FedBPT: the global state is one number x; each sampled client asks for the scores of the prompt z = [x] on
 * its rows in one step, and uploads the mean of their first class scores as its estimate of x; the server's next x is
 * the mean of the estimates weighted by the clients' sample counts. No randomness: the same scores give the same
 * bytes. Each client keeps how many rounds it has taken part in ({@link Visits}), so a test can see its memory come
 * back.
 *
 * <p>Its payloads name the codec {@link #NAME}, which is not registered in {@code Methods}: they can be handed
 * between actors in one JVM, not journalled or sent over the wire.
 */
public final class AveragingMethod implements FederatedMethod {
    public static final String NAME = "test-averaging";

    /** Class scores [row][class] that depend on the prompt and the row only: z[0] + the row's length, then 0. */
    public static final PromptScorer SCORER = (prompt, rows) -> {
        double x = ((Prompt.Continuous) prompt).z()[0];
        float[][] out = new float[rows.size()][2];
        for (int r = 0; r < rows.size(); r++) {
            out[r][0] = (float) (x + rows.get(r).length);
        }
        return out;
    };

    /** The global state, which is also every client's downlink. */
    public record Value(double x) implements MethodState, Downlink {
        @Override
        public String codec() {
            return NAME;
        }
    }

    /**
     * A client's answer: its estimate {@code x} of round {@code round} (0-based), and how many rounds it had taken
     * part in before this one.
     */
    public record Estimate(int round, int clientId, double loss, int sampleCount, double x, int visitsBefore)
            implements Upload {
        @Override
        public String codec() {
            return NAME;
        }
    }

    /** What a client keeps between rounds: how many it has taken part in. */
    public record Visits(int count) implements ClientMemory {
        @Override
        public String codec() {
            return NAME;
        }
    }

    private final double initial;

    /** Starts from x = {@code initial}. */
    public AveragingMethod(double initial) {
        this.initial = initial;
    }

    /** Starts from x = 0. */
    public AveragingMethod() {
        this(0.0);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public MethodState initialize() {
        return new Value(initial);
    }

    @Override
    public Downlink configure(MethodState global, int round) {
        return (Value) global;
    }

    /** The prompt a client holding {@code downlink} asks to be scored. */
    public static Prompt.Continuous prompt(Downlink downlink) {
        return new Prompt.Continuous(new double[] {((Value) downlink).x()});
    }

    @Override
    public ClientProcedure client(Downlink downlink, ClientTask task) {
        double x = ((Value) downlink).x();
        int visits = task.memory() == null ? 0 : ((Visits) task.memory()).count();
        return new ClientProcedure() {
            private final ScorePrompts request = new ScorePrompts(0, List.of(prompt(downlink)), task.data().tokenIds());
            private Step step = request;
            private int nonFinite;

            @Override
            public Step next() {
                return step;
            }

            @Override
            public void onScores(float[][][] scores) {
                ClientProcedure.checkShape(step instanceof ScorePrompts pending ? pending : null, scores);
                double sum = 0;
                for (float[] row : scores[0]) {
                    if (!Float.isFinite(row[0])) {
                        nonFinite++;
                    }
                    sum += row[0];
                }
                double estimate = sum / scores[0].length;
                step = new Finished(new Estimate(task.round(), task.clientId(), Math.abs(estimate - x),
                        task.data().size(), estimate, visits), new Visits(visits + 1));
            }

            @Override
            public int nonFiniteCount() {
                return nonFinite;
            }
        };
    }

    @Override
    public MethodState aggregate(MethodState global, List<Upload> uploads) {
        if (uploads.isEmpty()) {
            return global;
        }
        List<Estimate> sorted = uploads.stream().map(Estimate.class::cast)
                .sorted(Comparator.comparingInt(Estimate::clientId)).toList();
        double weighted = 0;
        long samples = 0;
        for (Estimate estimate : sorted) {
            weighted += estimate.x() * estimate.sampleCount();
            samples += estimate.sampleCount();
        }
        return new Value(weighted / samples);
    }

    @Override
    public String screen(MethodState global, Upload upload) {
        if (!(upload instanceof Estimate estimate)) {
            return "not an estimate of " + NAME;
        }
        return Double.isFinite(estimate.x()) ? null : "non-finite estimate " + estimate.x();
    }

    @Override
    public Prompt evaluationPrompt(MethodState global) {
        return new Prompt.Continuous(new double[] {((Value) global).x()});
    }

    @Override
    public Map<String, Double> metrics(MethodState global) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("x", ((Value) global).x());
        return metrics;
    }
}
