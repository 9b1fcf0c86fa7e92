package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.Adapter;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializer;
import akka.serialization.Serializers;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.actors.cluster.MeteredCborSerializer;
import dev.fedbpt.engine.method.Gradient;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.PromptScorer;
import dev.fedbpt.inference.ScoreRow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class InferencePoolTest {
    /** With what a cluster member adds for its wire messages (NodeSettings): Jackson reads fedbpt's classes. */
    private static final ActorTestKit KIT = ActorTestKit.create(AkkaDefaults.over(ConfigFactory.parseString(
            "akka.serialization.jackson.allowed-class-prefix = [\"dev.fedbpt.\"]")));

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    @Test
    void batchesGroupRowsOfSimilarLengthAndRepliesKeepRowOrder() {
        List<List<Integer>> batchLengths = Collections.synchronizedList(new ArrayList<>());
        RowScorer scorer = rows -> {
            batchLengths.add(rows.stream().map(row -> row.tokenIds().length).toList());
            float[][] scores = new float[rows.size()][];
            for (int i = 0; i < rows.size(); i++) {
                scores[i] = new float[] {rows.get(i).tokenIds().length};
            }
            return scores;
        };
        var settings = new InferencePool.Settings(4, 10_000, Duration.ofMillis(50), 100, 3);
        ActorRef<InferencePool.Command> pool = KIT.spawn(InferencePool.create(settings, List.of(scorer),
                FaultInjector.NONE));
        TestProbe<InferencePool.Reply> probe = KIT.createTestProbe();
        List<int[]> rows = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            rows.add(new int[i % 2 == 0 ? 3 : 30]); // short and long rows in turn
        }
        pool.tell(new InferencePool.ScoreRows(7, new Prompt.Continuous(new double[] {0.5}), rows,
                probe.getRef()));

        InferencePool.Scored scored = probe.expectMessageClass(InferencePool.Scored.class);
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(rows.get(i).length, scored.scores()[i][0], "row " + i + " keeps its place in the reply");
        }
        assertEquals(List.of(List.of(3, 3, 3, 3), List.of(30, 30, 30, 30)), batchLengths,
                "arrival order would pad every batch to 30 tokens");
    }

    @Test
    void eachKindOfPromptReachesTheModelAsItsInput() {
        int[] row = {101, 5, 102};
        assertEquals(null, InferencePool.modelInput(null, row).z());
        assertArrayEquals(new double[] {0.5}, InferencePool.modelInput(new Prompt.Continuous(new double[] {0.5}), row).z());
        assertArrayEquals(new int[] {101, 9, 5, 102},
                InferencePool.modelInput(new Prompt.Tokens(new int[] {9}), row).tokenIds());
        assertEquals(1, InferencePool.modelInput(new Prompt.Tokens(new int[] {9}), row).tokenPrompt(),
                "the head knows which tokens are the prompt's");
        assertEquals(0, InferencePool.modelInput(new Prompt.Continuous(new double[] {0.5}), row).tokenPrompt());
        assertArrayEquals(new float[] {1, 2, 3, 4},
                InferencePool.modelInput(new Prompt.Embeddings(new float[][] {{1, 2}, {3, 4}}), row).embeds());
    }

    @Test
    void whiteBoxRequestsRunWholeOnAWorkersUnitScorerAndAWorkerCrashIsRetried() {
        List<Integer> unitRows = Collections.synchronizedList(new ArrayList<>());
        PromptScorer units = new PromptScorer() {
            @Override
            public float[][] score(Prompt prompt, List<int[]> rows) {
                unitRows.add(rows.size());
                float[][] out = new float[rows.size()][];
                for (int i = 0; i < out.length; i++) out[i] = new float[]{((Prompt.Deep) prompt).inputLength(), i};
                return out;
            }

            @Override
            public Gradient lossAndGradient(Prompt.Deep prompt, List<int[]> rows, int[] labels) {
                unitRows.add(rows.size());
                return new Gradient(labels[0] + 0.5, prompt.input().clone(), new double[0]);
            }

            @Override
            public double[][][] layerKernels(List<int[]> rows) {
                unitRows.add(rows.size());
                return new double[][][]{{{rows.size()}}};
            }
        };
        RowScorer scorer = new RowScorer() {
            @Override
            public float[][] score(List<ScoreRow> rows) {
                throw new AssertionError("white-box requests never reach the row batches");
            }

            @Override
            public PromptScorer units() {
                return units;
            }
        };
        var settings = new InferencePool.Settings(4, 10_000, Duration.ofMillis(5), 100, 3);
        FaultInjector firstUnitFails = new FaultInjector() {
            @Override
            public boolean workerCrashes(int worker, long batchId) {
                return batchId == 0;
            }
        };
        ActorRef<InferencePool.Command> pool = KIT.spawn(InferencePool.create(settings, List.of(scorer),
                firstUnitFails));
        TestProbe<InferencePool.Reply> probe = KIT.createTestProbe();
        Prompt.Deep deep = Prompt.Deep.input(2, new double[]{1, 2, 3, 4});
        List<int[]> rows = List.of(new int[]{1, 2}, new int[]{1, 3, 2}, new int[]{1, 2});
        pool.tell(new InferencePool.ComputeGradient(1, deep, rows, new int[]{1, 0, 1}, probe.getRef()));
        InferencePool.GradientComputed g = probe.expectMessageClass(InferencePool.GradientComputed.class);
        assertEquals(1, g.requestId());
        assertEquals(1.5, g.gradient().loss());
        assertArrayEquals(new double[]{1, 2, 3, 4}, g.gradient().input());
        pool.tell(new InferencePool.ScoreRows(2, deep, rows, probe.getRef()));
        InferencePool.Scored scored = probe.expectMessageClass(InferencePool.Scored.class);
        assertEquals(2, scored.requestId());
        assertArrayEquals(new float[]{2, 2}, scored.scores()[2], "the deep prompt's scores, rows in order");
        pool.tell(new InferencePool.ComputeKernels(3, rows, probe.getRef()));
        InferencePool.KernelsComputed kernels = probe.expectMessageClass(InferencePool.KernelsComputed.class);
        assertEquals(3, kernels.requestId());
        assertEquals(3.0, kernels.kernels()[0][0][0], "the worker's layer kernels of the request's rows");
        assertEquals(List.of(3, 3, 3), unitRows, "each request ran whole, once, after the injected crash");
    }

    /** Requests cross cluster members (clients to the inference member): each kind reads back as it was sent. */
    @Test
    void eachKindOfRequestCrossesTheWireWhole() {
        TestProbe<InferencePool.Reply> probe = KIT.createTestProbe();
        List<int[]> rows = List.of(new int[] {101, 5, 102}, new int[] {101, 7, 8, 102});
        List<int[]> labelRows = List.of(new int[] {101, 103, 102}, new int[] {101, 103, 8, 102});

        var scores = (InferencePool.ScoreRows) wireRoundTrip(new InferencePool.ScoreRows(4,
                new Prompt.Tokens(new int[] {9, 10}), rows, labelRows, probe.getRef()));
        assertEquals(4, scores.requestId());
        assertArrayEquals(new int[] {9, 10}, ((Prompt.Tokens) scores.prompt()).ids());
        assertRows(rows, scores.rows());
        assertRows(labelRows, scores.labelRows());
        assertEquals(probe.getRef(), scores.replyTo());

        var plain = (InferencePool.ScoreRows) wireRoundTrip(new InferencePool.ScoreRows(5, null, rows, probe.getRef()));
        assertNull(plain.prompt());
        assertNull(plain.labelRows(), "no label rows: each row's label is read in the row itself");
        assertRows(rows, plain.rows());

        var step = (InferencePool.ComputeGradient) wireRoundTrip(new InferencePool.ComputeGradient(6,
                new Prompt.Deep(1, new double[] {0.25, -1e-300}, 1, new double[] {Math.PI, 2}), rows, new int[] {1, 0},
                probe.getRef()));
        assertEquals(6, step.requestId());
        Prompt.Deep deep = (Prompt.Deep) step.prompt();
        assertArrayEquals(new double[] {0.25, -1e-300}, deep.input(), "bit for bit");
        assertArrayEquals(new double[] {Math.PI, 2}, deep.prefix());
        assertArrayEquals(new int[] {1, 0}, step.labels());
        assertRows(rows, step.rows());
        assertEquals(probe.getRef(), step.replyTo());
        assertEquals(0, deep.maskedPrefixLayers().length);

        var masked = (InferencePool.ScoreRows) wireRoundTrip(new InferencePool.ScoreRows(8,
                new Prompt.Deep(0, null, 1, new double[] {1, 2, 3, 4}, new int[] {1}), rows, probe.getRef()));
        assertArrayEquals(new int[] {1}, ((Prompt.Deep) masked.prompt()).maskedPrefixLayers(), "the masked layers");
        assertArrayEquals(new double[] {1, 2, 3, 4}, ((Prompt.Deep) masked.prompt()).prefix());

        var kernels = (InferencePool.ComputeKernels) wireRoundTrip(new InferencePool.ComputeKernels(7, rows,
                probe.getRef()));
        assertEquals(7, kernels.requestId());
        assertRows(rows, kernels.rows());
        assertEquals(probe.getRef(), kernels.replyTo());
    }

    private static Object wireRoundTrip(InferencePool.Request request) {
        Serialization serialization = SerializationExtension.get(Adapter.toClassic(KIT.system()));
        Serializer serializer = serialization.findSerializerFor(request);
        assertInstanceOf(MeteredCborSerializer.class, serializer, "a wire message");
        String manifest = Serializers.manifestFor(serializer, request);
        byte[] bytes = serialization.serialize(request).get();
        Object back = serialization.deserialize(bytes, serializer.identifier(), manifest).get();
        assertEquals(request.getClass(), back.getClass());
        return back;
    }

    private static void assertRows(List<int[]> expected, List<int[]> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), "row " + i);
        }
    }
}
