package dev.fedbpt.engine.fedbpt;

import static dev.fedbpt.engine.cmaes.PycmaFixtures.assertClose;
import static dev.fedbpt.engine.cmaes.PycmaFixtures.assertSummary;
import static dev.fedbpt.engine.cmaes.PycmaFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.cmaes.PycmaFixtures;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * FedBPT's reference-code server ({@link FedBptStrategy} with REFERENCE_CODE and PYCMA) against three server rounds
 * recorded from NVIDIA FLARE's global_es.py on pycma 3.4.0 (../shared/reference/pycma-fixtures/server-d500.json),
 * chained as the fixture chains them: sigma', the tell with shortened uploads, and the sigma handed out next.
 */
class ReferenceCodeServerTest {
    private static final FedBptStrategy SERVER = new FedBptStrategy(FedBptStrategy.StepRule.REFERENCE_CODE,
            FedBptStrategy.ServerEs.PYCMA, 5, 8);

    @Test
    void threeRecordedRoundsThroughTheStrategy() {
        JsonNode f = PycmaFixtures.read("server-d500.json");
        JsonNode start = f.get("start");
        double[][] c0 = PycmaFixtures.serverC0(start);
        // The server's state holds the sigma it handed out (local_sigma_current) and C0's decomposition.
        GlobalState global = new GlobalState(0, new CmaesState(vector(start.get("mean")),
                start.get("local_sigma_current").asDouble(), c0, vector(start.get("p_sigma")),
                vector(start.get("p_c")), start.get("countiter").asLong(), c0, 0));
        for (JsonNode round : f.get("rounds")) {
            String label = "round " + round.get("round").asInt();
            List<LocalResult> uploads = new ArrayList<>();
            for (JsonNode upload : round.get("uploads")) {
                uploads.add(new LocalResult(global.round(), upload.get("client").asInt(), vector(upload.get("mean")),
                        vector(upload.get("local_sigmas")), upload.get("loss").asDouble(), 4, null));
            }
            JsonNode expected = round.get("default_tell");
            assertClose(FedBptStrategy.serverStep(FedBptStrategy.StepRule.REFERENCE_CODE, uploads, 5),
                    expected.get("global_sigma").asDouble(), label + " sigma'");
            List<LocalResult> shuffled = new ArrayList<>(uploads);
            Collections.reverse(shuffled);
            GlobalState next = SERVER.aggregate(global, shuffled);
            JsonNode after = expected.get("state_after_tell");
            CmaesState s = next.cmaes();
            assertClose(s.mean(), vector(after.get("mean")), label + " mean");
            assertClose(s.pathSigma(), vector(after.get("p_sigma")), label + " p_sigma");
            assertClose(s.pathC(), vector(after.get("p_c")), label + " p_c");
            assertSummary(s.covariance(), after.get("C_summary"), label);
            assertEquals(after.get("countiter").asLong(), s.generation(), label + " countiter");
            assertClose(s.sigma(), expected.get("nvflare_sigma").get("final_sigma").asDouble(), label + " sigma sent");
            global = next;
        }
    }

    @Test
    void startsFromPycmasInitialCovariance() {
        CmaesState s = SERVER.initial(10, 1.0).cmaes();
        assertEquals(Math.exp(1e-4 * 9 / 10), s.covariance()[9][9]);
        assertArrayEquals(s.covariance()[3], s.decomposed()[3]);
        assertEquals(0, s.tellsSinceDecomposition());
    }

    @Test
    void fedAvgUniformWeightsEveryClientAlike() {
        CmaesState any = CmaesState.initial(new double[2], 1);
        List<LocalResult> rs = List.of(
                new LocalResult(0, 0, new double[] {0, 4}, new double[] {1}, 0.5, 1, any.withSigma(1)),
                new LocalResult(0, 1, new double[] {4, 0}, new double[] {2}, 0.1, 3, any.withSigma(2)));
        GlobalState g = new FedAvgBbtStrategy(FedAvgBbtStrategy.Paths.RESET, FedAvgBbtStrategy.Weights.UNIFORM)
                .aggregate(new GlobalState(0, any), rs);
        assertArrayEquals(new double[] {2, 2}, g.cmaes().mean(), 1e-15);
        assertEquals(1.5, g.cmaes().sigma(), 1e-15);
        assertEquals(0, g.cmaes().generation());
    }
}
