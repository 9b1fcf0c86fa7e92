package dev.fedbpt.engine.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The seam driven by a method that is nothing like CMA-ES: each client tries a few random shifts of the global point
 * around its own remembered offset, keeps the best, and the server averages. Shows what a method supplies and that
 * the framework's reference loop hands every client its memory back.
 */
class LocalRoundsTest {
    private static final Vocabulary VOCAB = new Vocabulary(10, new int[] {0});

    record Point(double[] x) implements MethodState, Downlink {
        @Override
        public String codec() {
            return "toy";
        }
    }

    record Shift(int round, int clientId, double loss, int sampleCount, double[] x, int visitsBefore)
            implements Upload {
        @Override
        public String codec() {
            return "toy";
        }
    }

    /** How many rounds this client has taken part in: a personalised method's state, in miniature. */
    record Visits(int count) implements ClientMemory {
        @Override
        public String codec() {
            return "toy";
        }
    }

    static final class Toy implements FederatedMethod {
        @Override
        public String name() {
            return "toy";
        }

        @Override
        public MethodState initialize() {
            return new Point(new double[] {1, 1});
        }

        @Override
        public Downlink configure(MethodState global, int round) {
            return (Point) global;
        }

        @Override
        public ClientProcedure client(Downlink downlink, ClientTask task) {
            double[] start = ((Point) downlink).x();
            int visits = task.memory() == null ? 0 : ((Visits) task.memory()).count();
            var rng = Rng.of(task.seed(), Purpose.CLIENT_CMAES, task.round(), task.clientId());
            List<Prompt> tries = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                tries.add(new Prompt.Continuous(new double[] {start[0] + rng.nextGaussian() / (1 + visits),
                        start[1] + rng.nextGaussian() / (1 + visits)}));
            }
            return new ClientProcedure() {
                private Step step = new ScorePrompts(0, tries, task.data().tokenIds());

                @Override
                public Step next() {
                    return step;
                }

                @Override
                public void onScores(float[][][] scores) {
                    int best = 0;
                    for (int k = 1; k < scores.length; k++) {
                        best = scores[k][0][0] < scores[best][0][0] ? k : best;
                    }
                    double[] x = ((Prompt.Continuous) tries.get(best)).z();
                    step = new Finished(new Shift(task.round(), task.clientId(), scores[best][0][0],
                            task.data().size(), x, visits), new Visits(visits + 1));
                }

                @Override
                public int nonFiniteCount() {
                    return 0;
                }
            };
        }

        @Override
        public MethodState aggregate(MethodState global, List<Upload> uploads) {
            double[] sum = new double[2];
            for (Upload upload : uploads) {
                for (int i = 0; i < 2; i++) {
                    sum[i] += ((Shift) upload).x()[i] / uploads.size();
                }
            }
            return new Point(sum);
        }

        @Override
        public String screen(MethodState global, Upload upload) {
            return null;
        }

        @Override
        public Prompt evaluationPrompt(MethodState global) {
            return new Prompt.Continuous(((Point) global).x());
        }

        @Override
        public Map<String, Double> metrics(MethodState global) {
            Map<String, Double> metrics = new LinkedHashMap<>();
            metrics.put("norm", Math.hypot(((Point) global).x()[0], ((Point) global).x()[1]));
            return metrics;
        }
    }

    /** Loss |x|^2 in every row's first class score. */
    private static final PromptScorer SQUARED_NORM = (prompt, rows) -> {
        double[] x = ((Prompt.Continuous) prompt).z();
        float[][] out = new float[rows.size()][2];
        for (float[] row : out) {
            row[0] = (float) (x[0] * x[0] + x[1] * x[1]);
        }
        return out;
    };

    private static List<LocalData> clients(int n) {
        List<LocalData> data = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            data.add(new LocalData(List.of(new int[] {0, 3 + k}), new int[] {0}, 2));
        }
        return data;
    }

    @Test
    void aMethodUnlikeCmaesRunsThroughTheSeamAndItsClientsGetTheirMemoryBack() {
        LocalRounds.Outcome outcome = LocalRounds.run(new Toy(), 5, 6, 0.5, clients(6), VOCAB, SQUARED_NORM, false);
        assertEquals(6, outcome.states().size());
        double before = new Toy().metrics(outcome.initial()).get("norm");
        double after = new Toy().metrics(outcome.last()).get("norm");
        assertEquals(true, after < before, "the search moves towards the optimum: " + before + " -> " + after);
        // The uploads of a round are in client id order, and each answers its round; each client's memory counts
        // the rounds it took part in before.
        Map<Integer, Integer> visits = new java.util.HashMap<>();
        for (int t = 0; t < 6; t++) {
            List<Upload> uploads = outcome.uploads().get(t);
            assertEquals(3, uploads.size());
            for (int i = 1; i < uploads.size(); i++) {
                assertEquals(true, uploads.get(i - 1).clientId() < uploads.get(i).clientId());
            }
            for (Upload upload : uploads) {
                assertEquals(t, upload.round());
                int seen = visits.getOrDefault(upload.clientId(), 0);
                assertEquals(seen, ((Shift) upload).visitsBefore(), "client " + upload.clientId() + " round " + t);
                visits.put(upload.clientId(), seen + 1);
            }
        }
    }

    @Test
    void theClientOrderChangesNoBit() {
        LocalRounds.Outcome inOrder = LocalRounds.run(new Toy(), 9, 4, 0.5, clients(6), VOCAB, SQUARED_NORM, false);
        LocalRounds.Outcome shuffled = LocalRounds.run(new Toy(), 9, 4, 0.5, clients(6), VOCAB, SQUARED_NORM, true);
        for (int t = 0; t < 4; t++) {
            assertEquals(new Toy().evaluationPrompt(inOrder.states().get(t)).sha256(),
                    new Toy().evaluationPrompt(shuffled.states().get(t)).sha256());
        }
    }

    @Test
    void aFinishedStepCarriesAnUploadAndOptionallyNothingToKeep() {
        Shift shift = new Shift(0, 1, 0.5, 1, new double[] {0, 0}, 0);
        assertNull(new ClientProcedure.Finished(shift, null).memory());
        assertEquals(1, new ClientProcedure.Finished(shift, new Visits(1)).upload().clientId());
    }
}
