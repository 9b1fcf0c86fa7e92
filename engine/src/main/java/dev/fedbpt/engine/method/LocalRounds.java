package dev.fedbpt.engine.method;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Shuffle;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The single synchronous reference of what a method's federated rounds compute: sample clients, run each client's
 * procedure to its upload against a {@link PromptScorer}, aggregate. The actors (and the cluster) must reproduce its
 * states bit for bit.
 */
public final class LocalRounds {

    /**
     * {@code states.get(t)} is the global state after round t + 1; {@code uploads.get(t)} that round's uploads in
     * client id order.
     */
    public record Outcome(MethodState initial, List<MethodState> states, List<List<Upload>> uploads,
                          int nonFiniteCount) {
        public MethodState last() {
            return states.get(states.size() - 1);
        }
    }

    private LocalRounds() {}

    /**
     * @param shuffleClientOrder visit the sampled clients in a seeded random order (results must not change: every
     *                           client's randomness depends only on its coordinates)
     */
    public static Outcome run(FederatedMethod method, long seed, int rounds, double sampleFraction,
                              List<LocalData> clientData, Vocabulary vocabulary, PromptScorer scorer,
                              boolean shuffleClientOrder) {
        return run(method, seed, rounds, sampleFraction, clientData, null, Participation.everyone(clientData.size()),
                vocabulary, scorer, shuffleClientOrder);
    }

    /**
     * @param rounds      every round the server runs (a personalised method's personalisation round included)
     * @param clientTests each client's own test rows, or null where clients have none
     */
    public static Outcome run(FederatedMethod method, long seed, int rounds, double sampleFraction,
                              List<LocalData> clientData, List<LocalData> clientTests, Participation participation,
                              Vocabulary vocabulary, PromptScorer scorer, boolean shuffleClientOrder) {
        return run(method, seed, rounds, sampleFraction, clientData, clientTests, null, participation, vocabulary,
                scorer, shuffleClientOrder);
    }

    /** @param heldApart each client's rows held apart from its training data, or null where clients have none */
    public static Outcome run(FederatedMethod method, long seed, int rounds, double sampleFraction,
                              List<LocalData> clientData, List<LocalData> clientTests, List<HeldApart> heldApart,
                              Participation participation, Vocabulary vocabulary, PromptScorer scorer,
                              boolean shuffleClientOrder) {
        if (method == null || clientData == null || vocabulary == null || scorer == null) {
            throw new IllegalArgumentException("method, clientData, vocabulary and scorer must not be null");
        }
        MethodState initial = method.initialize();
        MethodState state = initial;
        List<MethodState> states = new ArrayList<>();
        List<List<Upload>> allUploads = new ArrayList<>();
        Map<Integer, ClientMemory> memories = new HashMap<>();
        int nonFinite = 0;
        for (int t = 0; t < rounds; t++) {
            int[] sampled = participation.clients(seed, t, 0, sampleFraction);
            if (shuffleClientOrder) {
                Shuffle.shuffle(sampled, Rng.of(seed, Purpose.CLIENT_ORDER, t));
            }
            Downlink downlink = method.configure(state, t);
            Upload[] byClient = new Upload[clientData.size()];
            for (int k : sampled) {
                ClientProcedure procedure = method.client(downlink, new ClientTask(k, t, clientData.get(k),
                        vocabulary, seed, memories.get(k), clientTests == null ? null : clientTests.get(k),
                        participation.isParticipant(k), heldApart == null ? null : heldApart.get(k)));
                ClientProcedure.Finished finished = runClient(procedure, scorer);
                nonFinite += procedure.nonFiniteCount();
                byClient[k] = finished.upload();
                if (finished.memory() != null) {
                    memories.put(k, finished.memory());
                }
            }
            List<Upload> uploads = new ArrayList<>();
            for (Upload upload : byClient) {
                if (upload != null) {
                    uploads.add(upload);
                }
            }
            state = method.aggregate(state, uploads);
            states.add(state);
            allUploads.add(List.copyOf(uploads));
        }
        return new Outcome(initial, List.copyOf(states), List.copyOf(allUploads), nonFinite);
    }

    /** Drives one client's procedure to its end, scoring one prompt (or computing one gradient) at a time. */
    public static ClientProcedure.Finished runClient(ClientProcedure procedure, PromptScorer scorer) {
        while (true) {
            ClientProcedure.Step step = procedure.next();
            if (step instanceof ClientProcedure.Finished finished) {
                return finished;
            }
            if (step instanceof ClientProcedure.ComputeGradient request) {
                procedure.onGradient(scorer.lossAndGradient(request.prompt(), request.rows(), request.labels()));
                continue;
            }
            if (step instanceof ClientProcedure.LayerKernels request) {
                procedure.onLayerKernels(scorer.layerKernels(request.rows()));
                continue;
            }
            ClientProcedure.ScorePrompts request = (ClientProcedure.ScorePrompts) step;
            float[][][] scores = new float[request.prompts().size()][][];
            for (int k = 0; k < scores.length; k++) {
                scores[k] = scorer.score(request.prompts().get(k), request.rows());
            }
            procedure.onScores(scores);
        }
    }
}
