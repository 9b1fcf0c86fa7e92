package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.PromptScorer;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.inference.SyntheticModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * One inference worker driven with its own protocol, the pool a probe: a batch of rows comes back as the model's
 * scores, a white-box unit as the unit scorer's one answer, and a model that throws restarts the worker, which tells
 * the pool and goes on with the same model.
 */
class InferenceWorkerTest {
    private static final ActorTestKit KIT = ActorTestKit.create(AkkaDefaults.over(ConfigFactory.empty()));
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final int DIMENSION = 4;
    /** The synthetic stand-in the run tests use (TestRuns: model.backend = synthetic), two classes. */
    private static final SyntheticModel MODEL =
            new SyntheticModel(ConfiguredModels.SYNTHETIC_VOCABULARY, 2, DIMENSION, 11L);

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    private static List<ScoreRow> rows(String... texts) {
        double[] z = {0.5, -0.25, 1, 0};
        List<ScoreRow> rows = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            int[] tokens = MODEL.encode(texts[i]);
            rows.add(i % 2 == 0 ? new ScoreRow(z, tokens) : ScoreRow.withoutPrompt(tokens)); // with and without z
        }
        return rows;
    }

    private static ActorRef<InferenceWorker.Command> worker(int index, RowScorer scorer, FaultInjector faults,
                                                            TestProbe<InferencePool.Command> pool) {
        return KIT.spawn(InferenceWorker.create(index, scorer, pool.getRef(), faults));
    }

    @Test
    void aBatchComesBackAsTheModelsScoresOfEachRowInOrder() {
        TestProbe<InferencePool.Command> pool = KIT.createTestProbe();
        ActorRef<InferenceWorker.Command> worker = worker(2, RowScorer.of(MODEL), FaultInjector.NONE, pool);
        List<ScoreRow> batch = rows("a fine film", "dull", "the plot goes nowhere at all", "great");

        worker.tell(new InferenceWorker.RunBatch(17, batch, false));
        var done = pool.expectMessageClass(InferencePool.BatchDone.class, WAIT);
        assertEquals(2, done.worker());
        assertEquals(17, done.batchId());
        assertEquals(batch.size(), done.scores().length);
        for (int i = 0; i < batch.size(); i++) {
            assertArrayEquals(MODEL.score(List.of(batch.get(i))), new float[][] {done.scores()[i]},
                    "row " + i + " scores as it does alone, to the bit");
        }
        worker.tell(new InferenceWorker.RunBatch(18, List.of(batch.get(2)), false));
        var again = pool.expectMessageClass(InferencePool.BatchDone.class, WAIT);
        assertEquals(18, again.batchId());
        assertArrayEquals(done.scores()[2], again.scores()[0], "the same row in another batch");
        pool.expectNoMessage(Duration.ofMillis(100));
    }

    @Test
    void eachKindOfUnitIsAnsweredWholeByTheUnitScorerToThePool() {
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        Gradient gradient = new Gradient(0.75, new double[] {1, 2}, new double[0]);
        double[][][] kernels = {{{1, 0.5}, {0.5, 1}}};
        PromptScorer units = new PromptScorer() {
            @Override
            public float[][] score(Prompt prompt, List<int[]> rows) {
                calls.add("score " + rows.size());
                float[][] out = new float[rows.size()][];
                for (int i = 0; i < out.length; i++) {
                    out[i] = new float[] {((Prompt.Deep) prompt).inputLength(), rows.get(i).length};
                }
                return out;
            }

            @Override
            public Gradient lossAndGradient(Prompt.Deep prompt, List<int[]> rows, int[] labels) {
                calls.add("gradient " + rows.size() + " " + labels.length);
                return gradient;
            }

            @Override
            public double[][][] layerKernels(List<int[]> rows) {
                calls.add("kernels " + rows.size());
                return kernels;
            }
        };
        RowScorer scorer = new RowScorer() {
            @Override
            public float[][] score(List<ScoreRow> rows) {
                throw new AssertionError("units never reach the row scorer");
            }

            @Override
            public PromptScorer units() {
                return units;
            }
        };
        TestProbe<InferencePool.Command> pool = KIT.createTestProbe();
        TestProbe<InferencePool.Reply> client = KIT.createTestProbe();
        ActorRef<InferenceWorker.Command> worker = worker(0, scorer, FaultInjector.NONE, pool);
        Prompt.Deep deep = Prompt.Deep.input(2, new double[] {1, 2, 3, 4});
        List<int[]> rows = List.of(new int[] {101, 5, 102}, new int[] {101, 6, 7, 102});

        worker.tell(new InferenceWorker.RunUnit(3, new InferencePool.ScoreRows(30, deep, rows, client.getRef()),
                false));
        var scored = pool.expectMessageClass(InferencePool.UnitDone.class, WAIT);
        assertEquals(0, scored.worker());
        assertEquals(3, scored.unitId(), "the pool's unit id, not the client's request id");
        assertArrayEquals(new float[][] {{2, 3}, {2, 4}}, scored.scores());
        assertNull(scored.gradient());
        assertNull(scored.kernels());

        worker.tell(new InferenceWorker.RunUnit(4, new InferencePool.ComputeGradient(31, deep, rows, new int[] {0, 1},
                client.getRef()), false));
        var stepped = pool.expectMessageClass(InferencePool.UnitDone.class, WAIT);
        assertEquals(4, stepped.unitId());
        assertSame(gradient, stepped.gradient());
        assertNull(stepped.scores());
        assertNull(stepped.kernels());

        worker.tell(new InferenceWorker.RunUnit(5, new InferencePool.ComputeKernels(32, rows, client.getRef()),
                false));
        var layered = pool.expectMessageClass(InferencePool.UnitDone.class, WAIT);
        assertEquals(5, layered.unitId());
        assertSame(kernels, layered.kernels());
        assertNull(layered.scores());
        assertNull(layered.gradient());

        assertEquals(List.of("score 2", "gradient 2 2", "kernels 2"), calls, "each unit ran once, whole");
        client.expectNoMessage(Duration.ofMillis(100)); // the pool answers the client
    }

    @Test
    void aModelThatThrowsRestartsTheWorkerWhichTellsThePoolAndKeepsItsModel() {
        AtomicInteger batches = new AtomicInteger();
        RowScorer counted = new RowScorer() {
            @Override
            public float[][] score(List<ScoreRow> rows) {
                batches.incrementAndGet();
                return MODEL.score(rows);
            }
        };
        TestProbe<InferencePool.Command> pool = KIT.createTestProbe();
        ActorRef<InferenceWorker.Command> worker = worker(1, counted, FaultInjector.NONE, pool);

        // The synthetic model refuses a prompt of the wrong dimension.
        List<ScoreRow> bad = List.of(new ScoreRow(new double[DIMENSION + 1], MODEL.encode("too wide a prompt")));
        worker.tell(new InferenceWorker.RunBatch(1, bad, false));
        assertEquals(new InferencePool.WorkerRestarted(1),
                pool.expectMessageClass(InferencePool.WorkerRestarted.class, WAIT));

        // A forward-only model refuses white-box units.
        ActorRef<InferencePool.Reply> nobody = KIT.<InferencePool.Reply>createTestProbe().getRef();
        worker.tell(new InferenceWorker.RunUnit(2, new InferencePool.ComputeGradient(9,
                Prompt.Deep.input(1, new double[] {1}), List.of(new int[] {101, 102}), new int[] {0}, nobody), false));
        assertEquals(new InferencePool.WorkerRestarted(1),
                pool.expectMessageClass(InferencePool.WorkerRestarted.class, WAIT));
        worker.tell(new InferenceWorker.RunUnit(3, new InferencePool.ComputeKernels(10, List.of(new int[] {101, 102}),
                nobody), false));
        assertEquals(new InferencePool.WorkerRestarted(1),
                pool.expectMessageClass(InferencePool.WorkerRestarted.class, WAIT));

        List<ScoreRow> good = rows("still here");
        worker.tell(new InferenceWorker.RunBatch(4, good, false));
        var done = pool.expectMessageClass(InferencePool.BatchDone.class, WAIT);
        assertEquals(4, done.batchId());
        assertArrayEquals(MODEL.score(good), done.scores());
        assertEquals(2, batches.get(), "the same scorer before and after the restarts");
        pool.expectNoMessage(Duration.ofMillis(100));
    }

    @Test
    void aScorerThatLosesRowsFailsTheBatchRatherThanMisplaceScores() {
        TestProbe<InferencePool.Command> pool = KIT.createTestProbe();
        RowScorer losesARow = rows -> MODEL.score(rows.subList(0, rows.size() - 1));
        ActorRef<InferenceWorker.Command> worker = worker(0, losesARow, FaultInjector.NONE, pool);
        worker.tell(new InferenceWorker.RunBatch(6, rows("one", "two"), false));
        assertEquals(new InferencePool.WorkerRestarted(0),
                pool.expectMessageClass(InferencePool.WorkerRestarted.class, WAIT));
        pool.expectNoMessage(Duration.ofMillis(100));
    }

    @Test
    void injectedFaultsCrashAFirstTryOnlyAndCorruptTheRowsTheyName() {
        List<ScoreRow> batch = rows("first row", "second row", "third row");
        int[] corruptedTokens = batch.get(1).tokenIds();
        FaultInjector faults = new FaultInjector() {
            @Override
            public boolean workerCrashes(int worker, long batchId) {
                return worker == 3 && batchId == 8;
            }

            @Override
            public Float corruptedScore(ScoreRow row) {
                return row.tokenIds() == corruptedTokens ? Float.NaN : null;
            }
        };
        float[][] modelScores = MODEL.score(batch);
        float[] modelRow = modelScores[1];
        RowScorer sameArrays = rows -> rows == batch ? modelScores : MODEL.score(rows);
        TestProbe<InferencePool.Command> pool = KIT.createTestProbe();
        ActorRef<InferenceWorker.Command> worker = worker(3, sameArrays, faults, pool);

        worker.tell(new InferenceWorker.RunBatch(8, batch, false));
        assertEquals(new InferencePool.WorkerRestarted(3),
                pool.expectMessageClass(InferencePool.WorkerRestarted.class, WAIT));
        worker.tell(new InferenceWorker.RunBatch(8, batch, true));
        var done = pool.expectMessageClass(InferencePool.BatchDone.class, WAIT);
        assertEquals(8, done.batchId(), "a retry is spared the injected crash");
        assertArrayEquals(modelScores[0], done.scores()[0]);
        assertArrayEquals(modelScores[2], done.scores()[2]);
        for (float value : done.scores()[1]) {
            assertTrue(Float.isNaN(value), "the named row's scores are all NaN");
        }
        assertNotSame(modelRow, done.scores()[1]);
        assertFalse(Float.isNaN(modelRow[0]) || Float.isNaN(modelRow[1]), "the model's own row is left as it was");
        pool.expectNoMessage(Duration.ofMillis(100));
    }
}
