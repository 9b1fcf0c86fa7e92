package dev.fedbpt.engine.cmaes;

import static dev.fedbpt.engine.cmaes.PycmaFixtures.assertClose;
import static dev.fedbpt.engine.cmaes.PycmaFixtures.assertSummary;
import static dev.fedbpt.engine.cmaes.PycmaFixtures.ints;
import static dev.fedbpt.engine.cmaes.PycmaFixtures.matrix;
import static dev.fedbpt.engine.cmaes.PycmaFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replays pycma 3.4.0's own recorded runs through {@link Pycma}: the parameters, eight client generations at N = 10
 * and N = 500 (with selective mirrors), a NaN fitness, and three FedBPT server tells at N = 500 with and without the
 * shortening of foreign solutions. Agreement to 1e-12 relative after every generation
 * ({@code ../shared/reference/pycma-fixtures/README.md}, "How to use the fixtures in tests").
 */
class PycmaFixturesTest {

    @Test
    void parametersEqualPycmas() {
        for (JsonNode config : PycmaFixtures.read("params.json").get("configs")) {
            int n = config.get("N").asInt();
            JsonNode options = config.get("options");
            int cmaMu = options.get("CMA_mu").isNull() ? 0 : options.get("CMA_mu").asInt();
            boolean mirrors = !options.has("CMA_mirrors");
            PycmaParameters p = PycmaParameters.of(n, config.get("popsize").asInt(), cmaMu, mirrors);
            String label = config.get("label").asText();
            assertEquals(config.get("lam_mirr").asInt(), p.mirrors(), label + " lam_mirr");
            assertEquals(config.get("mu").asInt(), p.mu(), label + " mu");
            assertClose(p.heldWeights(), vector(config.get("weights_held")), label + " weights held");
            double[] used = vector(config.get("weights_used_by_tell"));
            assertClose(p.weightsFor(used.length), used, label + " weights used");
            assertClose(p.muEff(), config.get("mueff").asDouble(), label + " mueff");
            assertClose(p.muEffMinus(), config.get("mueffminus").asDouble(), label + " mueffminus");
            assertClose(p.cSigma(), config.get("c_sigma").asDouble(), label + " c_sigma");
            assertClose(p.dSigma(), config.get("d_sigma").asDouble(), label + " d_sigma");
            assertClose(p.cc(), config.get("c_c").asDouble(), label + " c_c");
            assertClose(p.c1(), config.get("c1").asDouble(), label + " c1");
            assertClose(p.cMu(), config.get("c_mu").asDouble(), label + " c_mu");
            assertClose(p.chiN(), config.get("chiN_step_size").asDouble(), label + " chiN");
            assertClose(p.hsigThreshold(), config.get("hsig_threshold").asDouble(), label + " hsig threshold");
            assertClose(p.lazyGap(), config.get("lazy_update_gap").asDouble(), label + " lazy gap");
            assertClose(p.repairUpperLength(), config.get("repair_upper_mahalanobis_length").asDouble(),
                    label + " repair length");
            assertClose(p.mirrorKeepLength(), config.get("mirror_keep_length_threshold").asDouble(),
                    label + " mirror keep length");
            if (!config.get("initial_C_diag_pycma").isNull()) {
                CmaesState initial = Pycma.initialState(new double[n], 1.0);
                double[] diag = new double[n];
                for (int i = 0; i < n; i++) {
                    diag[i] = initial.covariance()[i][i];
                }
                assertClose(diag, vector(config.get("initial_C_diag_pycma")), label + " initial C");
            }
        }
    }

    @Test
    void clientAtDimension10MatchesEveryGeneration() {
        replayClient(PycmaFixtures.read("client-d10.json"));
    }

    @Test
    void clientAtDimension500MatchesEveryGeneration() {
        replayClient(PycmaFixtures.read("client-d500.json"));
    }

    @Test
    void nanFitnessBecomesTheMedianOfTheOthers() {
        JsonNode f = PycmaFixtures.read("nan-median-d10.json");
        JsonNode g = f.get("generations").get(0);
        Pycma es = clientStart(f);
        double[] fitness = vector(g.get("fitness"));
        assertEquals(true, Double.isNaN(fitness[2]), "the fixture's NaN");
        es.tellAsked(matrix(g.get("candidates")), fitness, -1);
        assertClose(es.lastTrace().fitnessUsed(), vector(g.get("fitness_after_nan_replacement")), "fitness used");
        assertArrayEquals(ints(g.get("ranking")), es.lastTrace().ranking());
        compareState(es, g.get("state_after_tell"), "NaN generation");
    }

    @Test
    void serverRoundsMatchWithAndWithoutShortening() {
        JsonNode f = PycmaFixtures.read("server-d500.json");
        JsonNode start = f.get("start");
        int n = f.get("N").asInt();
        double[][] c0 = PycmaFixtures.serverC0(start);
        double sum = 0;
        for (double[] row : c0) {
            for (double x : row) {
                sum += x;
            }
        }
        assertSummary(c0, start.get("C_summary"), "C0");
        assertClose(sum, start.get("C_sum_of_all_entries").asDouble(), "C0 sum");
        // pycma decomposed C0 when the state was set, at tell count 0: that decomposition serves all three rounds.
        CmaesState state = new CmaesState(vector(start.get("mean")), start.get("sigma").asDouble(), c0,
                vector(start.get("p_sigma")), vector(start.get("p_c")), start.get("countiter").asLong(), c0, 0);
        PycmaParameters params = PycmaParameters.server(n, f.get("clients").asInt());
        double handedOut = start.get("local_sigma_current").asDouble();
        for (JsonNode round : f.get("rounds")) {
            String label = "server round " + round.get("round").asInt();
            List<double[]> means = new ArrayList<>();
            List<Double> losses = new ArrayList<>();
            double squares = 0;
            for (JsonNode upload : round.get("uploads")) {
                means.add(vector(upload.get("mean")));
                losses.add(upload.get("loss").asDouble());
                for (double s : vector(upload.get("local_sigmas"))) {
                    squares += s * s;
                }
            }
            JsonNode expected = round.get("default_tell");
            double globalSigma = Math.sqrt(squares / means.size() / expected.get("local_cma_mu").asInt());
            assertClose(globalSigma, expected.get("global_sigma").asDouble(), label + " global sigma");
            double[][] x = means.toArray(double[][]::new);
            double[] fit = losses.stream().mapToDouble(Double::doubleValue).toArray();

            Pycma without = Pycma.resumed(state, params).withSigma(globalSigma);
            without.updateDecompositionIfDue();
            without.tellWithoutShortening(x, fit);
            JsonNode expectedWithout = round.get("no_shortening_tell");
            assertEquals(expectedWithout.get("hsig").asBoolean(), without.lastTrace().hsig(), label + " hsig (no shortening)");
            compareState(without, expectedWithout.get("state_after_tell"), label + " (no shortening)");

            Pycma server = Pycma.resumed(state, params).withSigma(globalSigma);
            server.updateDecompositionIfDue();
            server.tell(x, fit);
            Pycma.TellTrace trace = server.lastTrace();
            assertArrayEquals(ints(expected.get("ranking")), trace.ranking(), label + " ranking");
            assertEquals(expected.get("hsig").asBoolean(), trace.hsig(), label + " hsig");
            assertClose(trace.hsigLhs(), expected.get("hsig_lhs").asDouble(), label + " hsig lhs");
            assertClose(trace.shorteningDivisors(), vector(expected.get("shortening_divisor")), label + " divisors");
            assertClose(trace.cUpdateWeights(), vector(expected.get("c_update_weights")), label + " C weights");
            compareState(server, expected.get("state_after_tell"), label);
            assertClose(server.sigma(), expected.get("sigma_after_tell").asDouble(), label + " sigma after tell");
            double next = handedOut * (server.sigma() / globalSigma);
            assertClose(next, expected.get("nvflare_sigma").get("final_sigma").asDouble(), label + " final sigma");
            handedOut = next;
            state = server.state().withSigma(next);
            assertEquals(round.get("round").asInt(), state.tellsSinceDecomposition(),
                    label + ": C0's decomposition still serves (lazy gap 4.7 tells)");
        }
    }

    private static Pycma clientStart(JsonNode f) {
        int n = f.get("N").asInt();
        // The fixtures start from C = exactly I, zero paths, iteration 0 (a light copy of a server at C = I).
        CmaesState start = CmaesState.initial(vector(f.get("start").get("mean")), f.get("start").get("sigma").asDouble());
        return Pycma.fresh(start, PycmaParameters.client(n, f.get("options").get("popsize").asInt()));
    }

    private static void replayClient(JsonNode f) {
        Pycma es = clientStart(f);
        List<Double> sigmasUsed = new ArrayList<>();
        double[] previousMean = es.mean();
        for (JsonNode g : f.get("generations")) {
            String label = "generation " + g.get("generation").asInt();
            sigmasUsed.add(es.sigma());
            assertClose(es.sigma(), g.get("sigma_used").asDouble(), label + " sigma used");
            double[][] candidates = matrix(g.get("candidates"));
            JsonNode mirrors = g.get("mirrors");
            int mirrorIndex = -1;
            if (mirrors.size() > 0) {
                JsonNode m = mirrors.get(0);
                mirrorIndex = m.get("candidate_index").asInt();
                // The mirror lies on m + l y, y = the previous mean minus the previous generation's worst.
                double[] y = es.mirrorDirection();
                assertNotNull(y, label + ": a mirror was pending");
                es.updateDecompositionIfDue();
                double length = es.mahalanobisNorm(y);
                assertClose(length, m.get("direction_mahalanobis_length").asDouble(), label + " mirror length");
                assertEquals(m.get("rescaled").asBoolean(), length > es.parameters().mirrorKeepLength(),
                        label + " rescale decision");
                assertClose(es.mirrorCandidate(y, m.get("length_factor").asDouble()), candidates[mirrorIndex],
                        label + " mirror candidate");
            } else if (g.get("generation").asInt() > 1) {
                assertNull(es.mirrorDirection(), label + ": " + g.get("no_mirror_reason").asText());
            }
            es.updateDecompositionIfDue();
            es.tellAsked(candidates, vector(g.get("fitness")), mirrorIndex);
            Pycma.TellTrace trace = es.lastTrace();
            assertArrayEquals(ints(g.get("ranking")), trace.ranking(), label + " ranking");
            assertEquals(g.get("hsig").asBoolean(), trace.hsig(), label + " hsig");
            assertClose(trace.hsigLhs(), g.get("hsig_lhs").asDouble(), label + " hsig lhs");
            assertClose(trace.cUpdateWeights(), vector(g.get("c_update_weights")), label + " C update weights");
            compareState(es, g.get("state_after_tell"), label);
            previousMean = es.mean();
        }
        JsonNode upload = f.get("nvflare_upload");
        assertClose(sigmasUsed.stream().mapToDouble(Double::doubleValue).toArray(),
                vector(upload.get("local_sigmas")), "uploaded sigmas (the sigma each iteration used)");
        assertClose(previousMean, vector(upload.get("solution")), "uploaded solution");
        assertClose(es.sigma(), upload.get("sigma_after_last_tell_not_uploaded").asDouble(), "last sigma");
    }

    private static void compareState(Pycma es, JsonNode expected, String label) {
        CmaesState s = es.state();
        assertClose(s.mean(), vector(expected.get("mean")), label + " mean");
        assertClose(s.sigma(), expected.get("sigma").asDouble(), label + " sigma");
        assertClose(s.pathSigma(), vector(expected.get("p_sigma")), label + " p_sigma");
        assertClose(s.pathC(), vector(expected.get("p_c")), label + " p_c");
        assertEquals(expected.get("countiter").asLong(), s.generation(), label + " countiter");
        if (expected.has("C")) {
            assertClose(s.covariance(), matrix(expected.get("C")), label + " C");
        } else {
            assertSummary(s.covariance(), expected.get("C_summary"), label);
        }
    }
}
