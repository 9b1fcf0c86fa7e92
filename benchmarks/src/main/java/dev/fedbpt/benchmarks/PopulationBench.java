package dev.fedbpt.benchmarks;

import akka.actor.ActorSystem;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.actors.AkkaDefaults;
import dev.fedbpt.actors.ConfiguredModels;
import dev.fedbpt.actors.Evaluator;
import dev.fedbpt.actors.ExperimentRunner;
import dev.fedbpt.actors.FaultInjector;
import dev.fedbpt.actors.ModelFactory;
import dev.fedbpt.actors.ServerActor;
import dev.fedbpt.actors.cluster.ClusterNode;
import dev.fedbpt.actors.cluster.NodeSettings;
import dev.fedbpt.actors.cluster.Population;
import dev.fedbpt.actors.cluster.Ports;
import dev.fedbpt.actors.cluster.RoundStates;
import dev.fedbpt.actors.cluster.WireTraffic;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.config.RunFields;
import dev.fedbpt.config.RunLayout;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.fedbpt.GlobalState;
import dev.fedbpt.engine.fedbpt.LocalResult;
import dev.fedbpt.engine.fedbpt.ServerStrategy;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import dev.fedbpt.inference.ForwardingScoringModel;
import dev.fedbpt.inference.ModelTokenizer;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.inference.ScoringModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * The scale benchmark: a large synthetic population of which a few clients are sampled each round, on a real
 * two-member cluster in this JVM (member 1 the server, member 2 the clients and the inference pool, so every round's
 * messages between server and clients cross members), with the synthetic model as the fake scorer. It measures
 * rounds per second, heap (after a full GC) between rounds and in the middle of a round, the bytes members send
 * each other per round, and, on the engine alone, the server's aggregation against one client's local search.
 * Heap is then measured for a series of populations (sampled fixed) and of sampled counts (population fixed): the
 * least-squares slopes say what memory grows with.
 */
public final class PopulationBench {

    /** Round 1 starts from C = I (cheap to decompose) and runs cold code: it is never timed. */
    static final int WARMUP_ROUNDS = 1;
    /** Nothing here should take this long; past it both members are stopped so a broken run cannot hang. */
    private static final Duration RUN_LIMIT = Duration.ofMinutes(30);
    private static final Pattern ROUND_LINE = Pattern.compile("^round\\s+(\\d+)/");
    private static final double MB = 1024.0 * 1024.0;

    /**
     * What to run. Every size is configurable so that a test can run a tiny version.
     *
     * @param rounds           timed rounds of the main run; each run adds one warm-up round before them and one
     *                         heap-probe round after them (its mid-round full GC would distort a timed round)
     * @param slopePopulations populations run with {@code sampled} clients per round for the population slope
     * @param slopeSampled     sampled counts run in a population of {@code population} for the sampled slope
     * @param engineReps       timed repetitions of each engine measurement (the median is reported)
     */
    public record Settings(int population, int sampled, int dimension, int localIterations, int lambda, int rounds,
                           List<Integer> slopePopulations, List<Integer> slopeSampled, int rowsPerClient,
                           int tokensPerRow, int testRows, int engineReps, long seed) {
        public Settings {
            require(population >= 1, "population must be >= 1, was " + population);
            require(sampled >= 1 && sampled <= population,
                    "sampled clients per round must be in 1.." + population + ", was " + sampled);
            require(dimension >= 1, "dimension must be >= 1, was " + dimension);
            require(localIterations >= 1, "local iterations must be >= 1, was " + localIterations);
            require(lambda >= 2, "lambda (local population) must be >= 2, was " + lambda);
            require(rounds >= 1, "timed rounds must be >= 1, was " + rounds);
            require(rowsPerClient >= 1 && testRows >= 1, "clients and the test set need at least one row");
            require(tokensPerRow >= 3, "rows need at least 3 tokens ([CLS], one word, [SEP])");
            require(engineReps >= 1, "engine repetitions must be >= 1, was " + engineReps);
            slopePopulations = List.copyOf(new TreeSet<>(slopePopulations));
            slopeSampled = List.copyOf(new TreeSet<>(slopeSampled));
            require(slopePopulations.size() >= 2, "the population series needs two distinct sizes at least, was "
                    + slopePopulations);
            require(slopeSampled.size() >= 2, "the sampled series needs two distinct sizes at least, was "
                    + slopeSampled + " (sampled " + sampled + " is too small to derive one)");
            require(slopePopulations.get(0) >= sampled, "every population of the series must hold the " + sampled
                    + " sampled clients, was " + slopePopulations);
            require(slopeSampled.get(0) >= 1 && slopeSampled.get(slopeSampled.size() - 1) <= population,
                    "every sampled count of the series must be in 1.." + population + ", was " + slopeSampled);
        }

        /** The setting: 10,000 clients, 100 sampled per round, d = 500, I = 8, lambda = 5. */
        public static Settings defaults() {
            return of(10_000, 100, 500, 3);
        }

        /** Series derived from the main sizes: population / 10, / 2, / 1 and sampled / 4, / 2, / 1. */
        public static Settings of(int population, int sampled, int dimension, int rounds) {
            return new Settings(population, sampled, dimension, 8, 5, rounds,
                    positive(population / 10, population / 2, population), positive(sampled / 4, sampled / 2, sampled),
                    8, 24, 16, 5, 42);
        }

        public Settings withSlopes(List<Integer> populations, List<Integer> sampledCounts) {
            return new Settings(population, sampled, dimension, localIterations, lambda, rounds, populations,
                    sampledCounts, rowsPerClient, tokensPerRow, testRows, engineReps, seed);
        }

        public Settings withEngineReps(int reps) {
            return new Settings(population, sampled, dimension, localIterations, lambda, rounds, slopePopulations,
                    slopeSampled, rowsPerClient, tokensPerRow, testRows, reps, seed);
        }

        private static List<Integer> positive(int... sizes) {
            return Arrays.stream(sizes).filter(size -> size >= 1).boxed().toList();
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new IllegalArgumentException(message);
            }
        }
    }

    /** One kind of message between the members, per timed round (both directions together). */
    public record MessageTraffic(String type, double messagesPerRound, double bytesPerRound, double bytesPerMessage) {}

    /**
     * One cluster run. Heap is the whole JVM's (both members) after a full GC: {@code heapEndOfRoundMb} between the
     * last timed round and the next, {@code heapMidRoundMb} when half of the probe round's rows are scored, so the
     * round's sampled clients are all alive mid-search.
     */
    public record ClusterRun(int population, int sampled, int timedRounds, double roundsPerSecond,
                             double heapEndOfRoundMb, double heapMidRoundMb, double bytesPerRound,
                             List<MessageTraffic> byMessage, long runFolderBytes, int roundsRun, double seconds,
                             ClientBytes clientBytes) {}

    /**
     * What one client sends and receives per round, from the run's metrics.jsonl (counted from the encoded
     * messages): the timed rounds' bytes_down over their sampled clients and bytes_up over their reports.
     */
    public record ClientBytes(double downPerSampledClient, double upPerReport) {
        static ClientBytes read(Path metrics, int firstRound, int lastRound) {
            long down = 0;
            long up = 0;
            long sampled = 0;
            long reported = 0;
            try {
                ObjectMapper json = new ObjectMapper();
                for (String line : Files.readAllLines(metrics)) {
                    JsonNode round = json.readTree(line);
                    int number = round.get(RunFields.ROUND).asInt();
                    if (number >= firstRound && number <= lastRound) {
                        down += round.get(RunFields.BYTES_DOWN).asLong();
                        up += round.get(RunFields.BYTES_UP).asLong();
                        sampled += round.get(RunFields.SAMPLED).asLong();
                        reported += round.get(RunFields.REPORTED).asLong();
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + metrics, e);
            }
            return new ClientBytes((double) down / sampled, (double) up / reported);
        }
    }

    /** One message as the wire serializer writes it, against the frame limit of the channel it travels on. */
    public record FrameCheck(String type, String recipient, long bytes, boolean largeChannel, long frameLimitBytes) {
        public boolean fits() {
            return bytes <= frameLimitBytes;
        }
    }

    /**
     * Engine-only medians: the FedBPT server's aggregation of {@code sampled} uploads once its decomposition of the
     * global covariance is prepared (what a round waits for after its last answer), that decomposition alone (the
     * server computes it while the clients search, {@code ServerStrategy.prepare}), and one client's local
     * search with a scorer that costs next to nothing, once from scratch (as a client alone on its machine: its
     * own O(d^3) decomposition of the global covariance) and once from a shared, already decomposed start (as the
     * clients of one cluster member run, see SharedStart); and that search replayed from the fitness values it told,
     * without the model, from the shared start, as FedAvg-BBT's server rebuilds each client's local state.
     */
    public record EngineCosts(int sampled, int dimension, double serverUpdateMs, double serverPrepareMs,
                              double clientSearchMs, double clientSearchSharedStartMs, double searchReplayMs,
                              int reps) {}

    /**
     * Everything measured. Slopes are least squares over the series: MB per 1000 population clients and MB per
     * sampled client, of the mid-round heap (the round's working set) and of the heap between rounds.
     */
    public record Result(Settings settings, ClusterRun main, EngineCosts engine, List<FrameCheck> frames,
                         List<ClusterRun> populationSeries,
                         List<ClusterRun> sampledSeries, double slopeMbPer1000Population,
                         double slopeMbPerSampledClient, double endOfRoundSlopeMbPer1000Population,
                         double endOfRoundSlopeMbPerSampledClient) {

        /** The largest single message: the bigger of the two that grow with d. */
        public FrameCheck largestMessage() {
            return frames.stream().max(Comparator.comparingLong(FrameCheck::bytes)).orElseThrow();
        }
    }

    /** Where the cluster runs, for the output: the traffic figures mean nothing without it. */
    public static final String TOPOLOGY = "two cluster members in this JVM on 127.0.0.1: member 1 the server, member 2 "
            + "the clients and the inference pool, so every round's messages between server and clients cross members";

    private PopulationBench() {}

    /** Runs everything; {@code progress} gets one line per measurement (a full default run takes minutes). */
    public static Result run(Settings settings, Consumer<String> progress) {
        EngineTimings engine = new EngineTimings(settings);
        List<FrameCheck> frames = frameChecks(engine.global, engine.report());
        ClusterRun main = clusterRun(settings, settings.population(), settings.sampled(), settings.rounds(), progress);
        List<ClusterRun> populations = new ArrayList<>();
        for (int population : settings.slopePopulations()) {
            populations.add(population == main.population() ? main
                    : clusterRun(settings, population, settings.sampled(), 1, progress));
        }
        List<ClusterRun> sampled = new ArrayList<>();
        for (int count : settings.slopeSampled()) {
            sampled.add(count == main.sampled() ? main
                    : clusterRun(settings, settings.population(), count, 1, progress));
        }
        // Timed last: the cluster runs have compiled the CMA-ES and eigensolver code the timings exercise.
        EngineCosts costs = engine.costs();
        progress.accept(String.format(Locale.ROOT,
                "engine (d = %d): server update of %d uploads %.1f ms (after %.1f ms of decomposition ahead), one "
                        + "client's local search %.1f ms (%.1f ms from a shared start)", costs.dimension(),
                costs.sampled(), costs.serverUpdateMs(), costs.serverPrepareMs(), costs.clientSearchMs(),
                costs.clientSearchSharedStartMs()));
        return new Result(settings, main, costs, frames, populations, sampled,
                slope(populations, run -> run.population() / 1000.0, ClusterRun::heapMidRoundMb),
                slope(sampled, run -> (double) run.sampled(), ClusterRun::heapMidRoundMb),
                slope(populations, run -> run.population() / 1000.0, ClusterRun::heapEndOfRoundMb),
                slope(sampled, run -> (double) run.sampled(), ClusterRun::heapEndOfRoundMb));
    }

    // ---------------------------------------------------------------- configuration and synthetic population

    static ExperimentConfig config(Settings s, int population, int sampled, int rounds) {
        return ConfigLoader.load(null, List.of(
                "experiment.name=bench-population",
                "experiment.seed=" + s.seed(),
                "experiment.rounds=" + rounds,
                "experiment.eval-every=1000000", // only the final evaluation, of testRows rows
                "model.backend=synthetic",
                "federation.clients=" + population,
                "federation.sample-fraction=" + ((double) sampled / population),
                // A round that misses its deadline means the benchmark is broken: fail loudly, do not re-sample.
                "federation.round-deadline=5 minutes",
                "federation.max-attempts=1",
                "search.dimension=" + s.dimension(),
                "search.local-iterations=" + s.localIterations(),
                "search.population=" + s.lambda(),
                "data.test-limit=" + s.testRows()));
    }

    /**
     * Clients whose rows are a pure function of (seed, client id): random non-special tokens framed by the model's
     * own [CLS] ... [SEP], labels in [0, classes). Nothing per client exists until its entity asks for it.
     */
    static Population syntheticPopulation(Settings s, int population, ModelTokenizer model, int classes) {
        Vocabulary vocabulary = new Vocabulary(model.vocabularySize(), model.specialTokenIds());
        int[] frame = model.encode("");
        RandomGenerator testRng = Rng.of(s.seed(), Purpose.PARTITION, -1); // ids are >= 0: -1 is the test set's
        LocalData test = rows(testRng, s.testRows(), s.tokensPerRow(), vocabulary, frame, classes);
        return new Population(population,
                id -> rows(Rng.of(s.seed(), Purpose.PARTITION, id), s.rowsPerClient(), s.tokensPerRow(), vocabulary,
                        frame, classes),
                Evaluator.TestSet.accuracyOnly(test.tokenIds(), test.labels(), classes));
    }

    private static LocalData rows(RandomGenerator rng, int count, int tokens, Vocabulary vocabulary, int[] frame,
                                  int classes) {
        List<int[]> rows = new ArrayList<>(count);
        int[] labels = new int[count];
        boolean framed = frame.length >= 2;
        for (int r = 0; r < count; r++) {
            int[] row = new int[tokens];
            for (int t = 0; t < tokens; t++) {
                row[t] = vocabulary.nonSpecialToken(rng.nextInt(vocabulary.nonSpecialCount()));
            }
            if (framed) {
                row[0] = frame[0];
                row[tokens - 1] = frame[frame.length - 1];
            }
            rows.add(row);
            labels[r] = rng.nextInt(classes);
        }
        return new LocalData(rows, labels, classes);
    }

    // ---------------------------------------------------------------- single messages against frame limits

    /**
     * The two messages that grow with d, serialised by the very serializer the members use (in a throwaway local
     * actor system, so the cluster runs' counts stay untouched), against the limits the members are configured with.
     */
    static List<FrameCheck> frameChecks(GlobalState global, LocalResult report) {
        Config akka = clusterAkkaConfig(0, 1, Set.of(NodeSettings.Role.CLIENTS), ConfigFactory.empty());
        ActorSystem system = ActorSystem.create("fedbpt-wire-sizes", AkkaDefaults.over(ConfigFactory.parseString(
                "akka.actor.provider = local").withFallback(akka)));
        try {
            Serialization serialization = SerializationExtension.get(system);
            return List.of(
                    check(serialization, akka, new RoundStates.Global(global.round() + 1, global), RoundStates.PATH),
                    check(serialization, akka, new ServerActor.ClientReport(report, null, 1, 0, 0),
                            ClusterNode.SERVER_PATH));
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().join();
        }
    }

    private static FrameCheck check(Serialization serialization, Config akka, Object message,
                                    String recipient) {
        long bytes = serialization.serialize(message).get().length;
        // Exact paths: the members' list has no wildcards.
        boolean large = akka.getStringList("akka.remote.artery.large-message-destinations").contains(recipient);
        long limit = akka.getBytes(large ? "akka.remote.artery.advanced.maximum-large-frame-size"
                : "akka.remote.artery.advanced.maximum-frame-size");
        return new FrameCheck(WireTraffic.name(message.getClass()), recipient, bytes,
                large, limit);
    }

    // ---------------------------------------------------------------- cluster runs

    private static NodeSettings node(int port, int seedPort, Set<NodeSettings.Role> roles) {
        // Downing after 10 s: far beyond a full GC's pause (which must not look like a lost node), and short, as a
        // clients member whose server left without a clean goodbye waits this long before it stops.
        return new NodeSettings("127.0.0.1", port, List.of("127.0.0.1:" + seedPort), roles, Duration.ofSeconds(10),
                Duration.ofSeconds(60), null);
    }

    private static Config clusterAkkaConfig(int port, int seedPort, Set<NodeSettings.Role> roles, Config overrides) {
        return AkkaDefaults.over(overrides.withFallback(node(port, seedPort, roles).akkaConfig()));
    }

    static ClusterRun clusterRun(Settings s, int population, int sampled, int timedRounds,
                                 Consumer<String> progress) {
        int rounds = WARMUP_ROUNDS + timedRounds + 1;
        ExperimentConfig config = config(s, population, sampled, rounds);
        long rowsPerRound = (long) sampled * s.rowsPerClient()
                * ((long) s.localIterations() * s.lambda() * (config.settings().number("search.perturbation-rate") > 0 ? 2 : 1) + 1);
        Probe probe = new Probe(WARMUP_ROUNDS + timedRounds, rowsPerRound);
        Config overrides = ConfigFactory.empty();
        ModelFactory models = cfg -> new CountingModel(new ConfiguredModels().load(cfg), probe::onRows);
        int classes = config.task().numClasses();
        Path temp = temporaryDirectory();
        long started = System.nanoTime();
        try {
            int seedPort = Ports.free();
            ClusterNode server = ClusterNode.start(node(seedPort, seedPort, Set.of(NodeSettings.Role.SERVER)), config,
                    temp.resolve("run"), models, FaultInjector.NONE, probe::onProgress, overrides,
                    model -> syntheticPopulation(s, population, model, classes));
            ClusterNode clients;
            try {
                clients = ClusterNode.start(node(0, seedPort, Set.of(NodeSettings.Role.CLIENTS,
                                NodeSettings.Role.INFERENCE)), config, null, models, FaultInjector.NONE, line -> {},
                        overrides, model -> syntheticPopulation(s, population, model, classes));
            } catch (RuntimeException e) {
                server.system().terminate();
                throw e;
            }
            probe.server = server;
            probe.clients = clients;
            // Its own timer thread, shut down after the run: a cancelled task of a shared timer would stay queued
            // until it was due, holding both members (and every later run's heap figure) for RUN_LIMIT.
            ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "population-bench-watchdog");
                thread.setDaemon(true);
                return thread;
            });
            watchdog.schedule(() -> {
                server.system().terminate();
                clients.system().terminate();
            }, RUN_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            ExperimentRunner.Outcome outcome;
            try {
                outcome = server.awaitOutcome();
                clients.awaitOutcome();
            } finally {
                watchdog.shutdownNow();
            }
            if (!outcome.succeeded()) {
                throw new IllegalStateException("population benchmark run (population " + population + ", "
                        + sampled + " sampled) failed: " + outcome.failure());
            }
            ClusterRun run = probe.result(population, sampled, timedRounds, folderBytes(temp), rounds,
                    (System.nanoTime() - started) / 1e9, ClientBytes.read(RunLayout.metrics(temp.resolve("run")),
                            WARMUP_ROUNDS + 1, WARMUP_ROUNDS + timedRounds));
            progress.accept(String.format(Locale.ROOT,
                    "cluster (population %d, %d sampled, %d timed rounds): %.3f rounds/s, heap %.0f MB between "
                            + "rounds, %.0f MB mid-round, %.2f MB/round between members, %.0f s",
                    population, sampled, timedRounds, run.roundsPerSecond(), run.heapEndOfRoundMb(),
                    run.heapMidRoundMb(), run.bytesPerRound() / MB, run.seconds()));
            return run;
        } finally {
            deleteRecursively(temp);
        }
    }

    /**
     * What a cluster run observes: round lines come from the server's actor (between rounds: the next round opens
     * only after the line), scored rows from the inference worker. Rounds 1..warm-up are untimed; the timed rounds
     * end with round {@code lastTimed}; the round after it is the heap probe's.
     */
    private static final class Probe {
        final int lastTimed;
        final long rowsPerRound;
        final AtomicLong rows = new AtomicLong();
        final AtomicBoolean probed = new AtomicBoolean();
        volatile ClusterNode server;
        volatile ClusterNode clients;
        volatile long probeFrom = -1; // rows scored when the probe round opened; -1 before
        volatile long firstNanos;
        volatile long lastNanos;
        volatile Map<String, WireTraffic.Tally> firstTraffic;
        volatile Map<String, WireTraffic.Tally> lastTraffic;
        volatile double heapEndOfRoundMb = Double.NaN;
        volatile double heapMidRoundMb = Double.NaN;

        Probe(int lastTimed, long rowsPerRound) {
            this.lastTimed = lastTimed;
            this.rowsPerRound = rowsPerRound;
        }

        void onProgress(String line) {
            Matcher round = ROUND_LINE.matcher(line);
            if (!round.find()) {
                return;
            }
            int completed = Integer.parseInt(round.group(1));
            long now = System.nanoTime(); // before anything else, so the measuring never counts as round time
            if (completed == WARMUP_ROUNDS) {
                firstNanos = now;
                firstTraffic = traffic();
            }
            if (completed == lastTimed) {
                lastNanos = now;
                lastTraffic = traffic();
                heapEndOfRoundMb = heapAfterGcMb();
                probeFrom = rows.get();
            }
        }

        void onRows(int count) {
            long total = rows.addAndGet(count);
            long from = probeFrom;
            // Blocking the worker here pauses every client mid-search: a consistent snapshot of the round.
            if (from >= 0 && total - from >= rowsPerRound / 2 && probed.compareAndSet(false, true)) {
                heapMidRoundMb = heapAfterGcMb();
            }
        }

        private Map<String, WireTraffic.Tally> traffic() {
            Map<String, WireTraffic.Tally> sum = new TreeMap<>(server.traffic().snapshot());
            clients.traffic().snapshot().forEach((type, tally) -> sum.merge(type, tally,
                    (a, b) -> new WireTraffic.Tally(a.messages() + b.messages(), a.bytes() + b.bytes())));
            return sum;
        }

        ClusterRun result(int population, int sampled, int timedRounds, long folderBytes, int roundsRun,
                          double seconds, ClientBytes clientBytes) {
            if (firstTraffic == null || lastTraffic == null || Double.isNaN(heapMidRoundMb)) {
                throw new IllegalStateException("the benchmark's probes did not fire (round lines seen: "
                        + (firstTraffic != null) + "/" + (lastTraffic != null) + ", mid-round heap after "
                        + rowsPerRound / 2 + " of the probe round's rows: " + !Double.isNaN(heapMidRoundMb)
                        + "); did the progress line format change?");
            }
            List<MessageTraffic> byMessage = new ArrayList<>();
            double total = 0;
            for (Map.Entry<String, WireTraffic.Tally> entry : lastTraffic.entrySet()) {
                WireTraffic.Tally before = firstTraffic.getOrDefault(entry.getKey(), new WireTraffic.Tally(0, 0));
                long messages = entry.getValue().messages() - before.messages();
                long bytes = entry.getValue().bytes() - before.bytes();
                if (messages > 0) {
                    byMessage.add(new MessageTraffic(entry.getKey(), (double) messages / timedRounds,
                            (double) bytes / timedRounds, (double) bytes / messages));
                    total += (double) bytes / timedRounds;
                }
            }
            byMessage.sort(Comparator.comparingDouble(MessageTraffic::bytesPerRound).reversed());
            double roundsPerSecond = timedRounds / ((lastNanos - firstNanos) / 1e9);
            return new ClusterRun(population, sampled, timedRounds, roundsPerSecond, heapEndOfRoundMb, heapMidRoundMb,
                    total, List.copyOf(byMessage), folderBytes, roundsRun, seconds, clientBytes);
        }
    }

    private static double heapAfterGcMb() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / MB;
    }

    /** The synthetic model, counting the rows it scores for the mid-round probe. */
    private static final class CountingModel extends ForwardingScoringModel {
        private final IntConsumer scored;

        CountingModel(ScoringModel delegate, IntConsumer scored) {
            super(delegate);
            this.scored = scored;
        }

        @Override
        public float[][] score(List<ScoreRow> rows) {
            float[][] scores = super.score(rows);
            scored.accept(rows.size());
            return scores;
        }
    }

    // ---------------------------------------------------------------- helpers

    /** Least-squares slope of y against x over the runs. */
    static double slope(List<ClusterRun> runs, ToDoubleFunction<ClusterRun> x,
                        ToDoubleFunction<ClusterRun> y) {
        double mx = runs.stream().mapToDouble(x).average().orElse(Double.NaN);
        double my = runs.stream().mapToDouble(y).average().orElse(Double.NaN);
        double sxy = 0;
        double sxx = 0;
        for (ClusterRun run : runs) {
            double dx = x.applyAsDouble(run) - mx;
            sxy += dx * (y.applyAsDouble(run) - my);
            sxx += dx * dx;
        }
        return sxy / sxx;
    }


    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("fedbpt-population-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary run folder", e);
        }
    }

    private static long folderBytes(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot measure " + directory, e);
        }
    }

    private static void deleteRecursively(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException e) {
            // best effort: a leftover temporary folder must not hide the benchmark's result
        }
    }
}
