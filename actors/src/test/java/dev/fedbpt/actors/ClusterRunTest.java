package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.cluster.typed.Cluster;
import akka.cluster.typed.Leave;
import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.actors.cluster.ClusterNode;
import dev.fedbpt.actors.cluster.NodeSettings.Role;
import dev.fedbpt.actors.cluster.NodeSettings;
import dev.fedbpt.actors.cluster.Ports;
import dev.fedbpt.actors.cluster.WireTraffic;
import dev.fedbpt.config.ExperimentConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Three cluster members in one JVM on loopback: the server with the inference pool, and two members hosting the
 * sharded clients. Without node loss the run ends on the single-JVM run's bytes; when a clients member crashes or
 * leaves mid-round its started clients are dropped, its shards move to the other member and the run completes; when the
 * inference member is gone too long the run stops with a reason that names it. Faults injected on a member without
 * the server role count in the server's metrics as they would in one JVM.
 *
 * <p>The timeout guards against a hang, not speed: the PyTorch run took 28 s on a free 2-core machine and ran out of
 * 180 s beside a sweep that held both cores.
 */
@Timeout(600)
class ClusterRunTest {
    private static final String[] CLUSTER_RUN = {"federation.clients=6", "experiment.rounds=4"};

    /**
     * FedBPT: after the first round, a clients member holding the previous round's state receives the round's
     * uploads instead of the state (2 MB at d = 500), rebuilds the state and checks its digest, and the run ends on
     * the same hash; metrics.jsonl counts the same bytes as one JVM's.
     */
    @Test
    void endsOnTheSingleJvmBytesWithoutNodeLoss(@TempDir Path dir) {
        ClusterNode server = assertClusterEndsOnTheSingleJvmBytes(TestRuns.config(CLUSTER_RUN), dir);
        java.util.Map<String, WireTraffic.Tally> sent = server.traffic().snapshot();
        WireTraffic.Tally updates = sent.get("RoundStates.Update");
        WireTraffic.Tally states = sent.get("RoundStates.Global");
        assertTrue(updates != null && updates.messages() > 0, "round updates travelled: " + sent);
        assertTrue(updates.bytes() / updates.messages() < states.bytes() / states.messages(),
                "an update is smaller than a state: " + sent);
        assertEquals(TestRuns.metrics(dir.resolve("single")).stream().map(r -> r.get("bytes_down")).toList(),
                TestRuns.metrics(dir.resolve("cluster")).stream().map(r -> r.get("bytes_down")).toList());
    }

    /**
     * Fed-BBPT: token prompts, a counts round, and each client's AdamW moments kept across rounds, travelling with
     * the round message to whichever member runs the client next.
     */
    @Test
    void fedBbptWithClientMemoryEndsOnTheSingleJvmBytes(@TempDir Path dir) {
        assertClusterEndsOnTheSingleJvmBytes(TestRuns.config(TestRuns.concat(MatchesLocalSimulationTest.FED_BBPT,
                CLUSTER_RUN)), dir);
    }

    /**
     * DLS-EC: one client per domain, one held out; the personalisation round runs every client on whichever member
     * holds it, and its post-tuned results come back as one JVM computes them.
     */
    @Test
    void dlsEcWithItsPersonalisationRoundEndsOnTheSingleJvmBytes(@TempDir Path dir) {
        DomainFiles.write(dir);
        assertClusterEndsOnTheSingleJvmBytes(TestRuns.config(TestRuns.concat(DomainFiles.dlsEc(dir, 3),
                CLUSTER_RUN)), dir);
        assertEquals(TestRuns.result(dir.resolve("single")).get("final_p_accuracy"),
                TestRuns.result(dir.resolve("cluster")).get("final_p_accuracy"));
    }

    /**
     * FedPepTAO on the PyTorch backend: layer kernels and gradients answered on the inference member for clients on
     * the others, each device's own layers and AdamW moments travelling with its round message, Algorithm 1's choice
     * and the personalisation round as one JVM computes them.
     */
    @Test
    void fedPepTaoOnThePytorchBackendEndsOnTheSingleJvmBytes(@TempDir Path dir) {
        assertClusterEndsOnTheSingleJvmBytes(TestRuns.config("federation.clients=6", "experiment.rounds=4",
                "model.backend=pytorch", "model.intra-op-threads=1", "experiment.method=fedpeptao",
                "fedpeptao.warm-up-rounds=1", "fedpeptao.lanczos-steps=3", "gradient.prefix-length=2",
                "gradient.local-epochs=1", "federation.sample-fraction=0.5", "data.split=dirichlet",
                "federation.held-out-clients=1"), dir);
        assertEquals(TestRuns.result(dir.resolve("single")).get("final_np_accuracy"),
                TestRuns.result(dir.resolve("cluster")).get("final_np_accuracy"));
    }

    /** @return the server's member, stopped, whose traffic a test may read */
    private static ClusterNode assertClusterEndsOnTheSingleJvmBytes(ExperimentConfig config, Path dir) {
        assertTrue(TestRuns.run(config, dir.resolve("single")).succeeded());

        int seed = Ports.free();
        ClusterNode server = start(config, dir.resolve("cluster"), seed, seed, Set.of(Role.SERVER, Role.INFERENCE),
                line -> {});
        ClusterNode clientsA = start(config, null, 0, seed, Set.of(Role.CLIENTS), line -> {});
        ClusterNode clientsB = start(config, null, 0, seed, Set.of(Role.CLIENTS), line -> {});
        ExperimentRunner.Outcome outcome = server.awaitOutcome();
        assertNull(outcome.failure());
        assertNull(clientsA.awaitOutcome(), "a clients member stops once the server has left");
        assertNull(clientsB.awaitOutcome());

        assertEquals(hash(dir.resolve("single")), hash(dir.resolve("cluster")),
                "sharding changes where clients run, never what they compute");
        assertTrue(clientsA.traffic().totalBytes() + clientsB.traffic().totalBytes() > 0,
                "the clients' answers crossed members");
        assertTrue(server.traffic().snapshot().containsKey("RoundStates.Global"),
                "round states travel to the clients members: " + server.traffic().snapshot());
        return server;
    }

    @Test
    void countsTheFaultsInjectedOnAClientsMemberInTheServersMetricsAsOneJvmDoes(@TempDir Path dir) {
        // Client faults are decided where the client runs: here on a member without the server role. Crashes and
        // short delays, as every client then answers and no round waits for its deadline (the first round of a
        // cluster can take seconds to reach its clients while shards are allocated, which a short deadline would
        // turn into drops that one JVM does not see).
        ExperimentConfig config = TestRuns.config(TestRuns.concat(CLUSTER_RUN, "faults.client-crash-rate=0.3",
                "faults.client-delay-rate=0.5", "faults.client-delay-mean=100ms"));
        Path single = dir.resolve("single");
        assertTrue(TestRuns.run(config, single).succeeded());

        int seed = Ports.free();
        ClusterNode server = start(config, dir.resolve("cluster"), seed, seed, Set.of(Role.SERVER, Role.INFERENCE),
                line -> {});
        ClusterNode clients = start(config, null, 0, seed, Set.of(Role.CLIENTS), line -> {});
        assertNull(server.awaitOutcome().failure());
        assertNull(clients.awaitOutcome());

        Path cluster = dir.resolve("cluster");
        assertEquals(hash(single), hash(cluster), "relaying counts changes no result");
        assertTrue(faultSum(cluster, "client_crash") > 0 && faultSum(cluster, "client_delay") > 0,
                faultsByRound(cluster).toString());
        assertTrue(clients.traffic().snapshot().containsKey("ServerActor.FaultsInjected"),
                "the clients member sent its counts: " + clients.traffic().snapshot());
        // Exact per round: a client's count leaves its member before the client's answer, on the same connection
        // to the same actor, so it is in before that answer can close the round.
        assertEquals(faultsByRound(single), faultsByRound(cluster));
        assertEquals(TestRuns.result(single).get("faults_injected").asLong(),
                TestRuns.result(cluster).get("faults_injected").asLong());
    }

    @ParameterizedTest(name = "graceful leave: {0}")
    @ValueSource(booleans = {false, true})
    void completesWhenAClientsMemberCrashesOrLeavesMidRound(boolean leaves, @TempDir Path dir) {
        // Held-back answers make each round last long enough for the crash to land inside one.
        ExperimentConfig config = TestRuns.config(TestRuns.concat(CLUSTER_RUN, "faults.client-delay-rate=1.0",
                "faults.client-delay-mean=400ms", "federation.max-attempts=5"));
        int seed = Ports.free();
        ClusterNode[] doomed = new ClusterNode[1];
        AtomicBoolean crashed = new AtomicBoolean();
        Consumer<String> crashAfterFirstRound = line -> {
            if (line.contains("round   1/") && crashed.compareAndSet(false, true)) {
                if (leaves) { // its shards are handed off, then it is removed and stops
                    Cluster cluster = Cluster.get(doomed[0].system());
                    cluster.manager().tell(Leave.create(cluster.selfMember().address()));
                } else { // no goodbye: the others find it unreachable and down it
                    doomed[0].system().terminate();
                }
            }
        };
        ClusterNode server = start(config, dir.resolve("cluster"), seed, seed, Set.of(Role.SERVER, Role.INFERENCE),
                crashAfterFirstRound);
        ClusterNode survivor = start(config, null, 0, seed, Set.of(Role.CLIENTS), line -> {});
        doomed[0] = ClusterNode.start(settings(0, seed, Set.of(Role.CLIENTS)), config, null, new ConfiguredModels(),
                SeededFaults.from(config), line -> {},
                ConfigFactory.parseString("akka.coordinated-shutdown.run-by-actor-system-terminate = off"));

        ExperimentRunner.Outcome outcome = server.awaitOutcome();
        assertNull(outcome.failure());
        assertTrue(crashed.get());
        assertNull(survivor.awaitOutcome());
        List<JsonNode> rounds = TestRuns.metrics(dir.resolve("cluster"));
        assertEquals(4, rounds.size());
        // Clients that had started on the crashed member are dropped; round messages that died with it are sent
        // again and run on the survivor. If nobody had to be dropped, nothing differs from the single-JVM run.
        boolean dropped = rounds.stream().anyMatch(round -> round.get("attempts").asInt() > 1
                || round.get("reported").asInt() < round.get("sampled").asInt());
        if (!dropped) {
            assertTrue(TestRuns.run(config, dir.resolve("single")).succeeded());
            assertEquals(hash(dir.resolve("single")), hash(dir.resolve("cluster")),
                    "no dropout, so the single-JVM bytes: " + rounds);
        }
    }

    @Test
    void stopsWithAClearReasonWhenTheInferenceMemberIsGoneTooLong(@TempDir Path dir) {
        ExperimentConfig config = TestRuns.config(TestRuns.concat(CLUSTER_RUN, "faults.client-delay-rate=1.0",
                "faults.client-delay-mean=400ms"));
        int seed = Ports.free();
        ClusterNode[] inference = new ClusterNode[1];
        AtomicBoolean crashed = new AtomicBoolean();
        ClusterNode server = start(config, dir, seed, seed, Set.of(Role.SERVER), line -> {
            if (line.contains("round   1/") && crashed.compareAndSet(false, true)) {
                inference[0].system().terminate();
            }
        });
        ClusterNode clients = start(config, null, 0, seed, Set.of(Role.CLIENTS), line -> {});
        inference[0] = ClusterNode.start(settings(0, seed, Set.of(Role.INFERENCE)), config, null,
                new ConfiguredModels(), SeededFaults.from(config), line -> {},
                ConfigFactory.parseString("akka.coordinated-shutdown.run-by-actor-system-terminate = off"));

        ExperimentRunner.Outcome outcome = server.awaitOutcome();
        assertTrue(crashed.get());
        assertTrue(outcome.failure() != null && outcome.failure().contains("no inference pool reachable for 3 s"),
                "the failure names the missing inference member: " + outcome.failure());
        assertTrue(outcome.failure().contains("everything up to round"), outcome.failure());
        assertNull(clients.awaitOutcome());
        assertTrue(TestRuns.metrics(dir).size() >= 1, "the rounds before the loss are kept");
    }

    private static ClusterNode start(ExperimentConfig config, Path runDirectory, int port, int seed, Set<Role> roles,
                                     Consumer<String> progress) {
        return ClusterNode.start(settings(port, seed, roles), config, runDirectory, new ConfiguredModels(),
                SeededFaults.from(config), progress);
    }

    private static NodeSettings settings(int port, int seed, Set<Role> roles) {
        return new NodeSettings("127.0.0.1", port, List.of("127.0.0.1:" + seed), roles, Duration.ofSeconds(2),
                Duration.ofSeconds(3), null);
    }

    private static String hash(Path run) {
        return TestRuns.result(run).get("global_mean_sha256").asText();
    }

    private static List<String> faultsByRound(Path run) {
        return TestRuns.metrics(run).stream().map(line -> line.get("faults").toString()).toList();
    }

    private static long faultSum(Path run, String fault) {
        return TestRuns.metrics(run).stream().mapToLong(line -> line.get("faults").get(fault).asLong()).sum();
    }
}
