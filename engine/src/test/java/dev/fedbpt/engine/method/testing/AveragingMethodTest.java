package dev.fedbpt.engine.method.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.LocalRounds;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.Upload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fixture method does what its documentation says, so tests built on it can rely on its numbers. */
class AveragingMethodTest {
    private static final Vocabulary VOCAB = new Vocabulary(10, new int[] {0});
    private static final AveragingMethod METHOD = new AveragingMethod(1.0);

    private static LocalData rows(int... lengths) {
        List<int[]> rows = new ArrayList<>();
        for (int length : lengths) {
            rows.add(new int[length]);
        }
        return new LocalData(rows, new int[lengths.length], 2);
    }

    @Test
    void aClientAsksOnceAndUploadsTheMeanOfItsFirstClassScores() {
        MethodState global = METHOD.initialize();
        ClientTask task = new ClientTask(4, 2, rows(2, 4), VOCAB, 7L, null);
        ClientProcedure procedure = METHOD.client(METHOD.configure(global, 2), task);
        ClientProcedure.ScorePrompts asked = assertInstanceOf(ClientProcedure.ScorePrompts.class, procedure.next());
        assertEquals(1, asked.prompts().size());
        assertArrayEquals(new double[] {1.0}, ((Prompt.Continuous) asked.prompts().get(0)).z(), "z = [x]");
        assertEquals(2, asked.rows().size());

        ClientProcedure.Finished finished = LocalRounds.runClient(procedure, AveragingMethod.SCORER);
        AveragingMethod.Estimate estimate = (AveragingMethod.Estimate) finished.upload();
        assertEquals(new AveragingMethod.Estimate(2, 4, 3.0, 2, 4.0, 0), estimate, "x = 1, rows of 2 and 4 tokens");
        assertEquals(new AveragingMethod.Visits(1), finished.memory());
        assertNull(METHOD.screen(global, estimate));

        ClientProcedure again = METHOD.client(METHOD.configure(global, 3),
                new ClientTask(4, 3, rows(2), VOCAB, 7L, finished.memory()));
        assertEquals(1, ((AveragingMethod.Estimate) LocalRounds.runClient(again, AveragingMethod.SCORER).upload())
                .visitsBefore(), "the memory of the last round comes back");
    }

    @Test
    void theServerAveragesEstimatesWeightedBySamplesWhateverTheirOrder() {
        List<Upload> uploads = List.of(new AveragingMethod.Estimate(0, 2, 0, 3, 4.0, 0),
                new AveragingMethod.Estimate(0, 1, 0, 1, 8.0, 0));
        MethodState next = METHOD.aggregate(METHOD.initialize(), uploads);
        assertEquals(new AveragingMethod.Value(5.0), next);
        assertEquals(next, METHOD.aggregate(METHOD.initialize(), List.of(uploads.get(1), uploads.get(0))));
        assertEquals(5.0, METHOD.metrics(next).get("x"));
        assertNotNull(METHOD.screen(next, new AveragingMethod.Estimate(0, 1, 0, 1, Double.NaN, 0)));
    }
}
