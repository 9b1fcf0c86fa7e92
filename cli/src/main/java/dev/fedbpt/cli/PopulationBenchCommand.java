package dev.fedbpt.cli;

import dev.fedbpt.benchmarks.PopulationBench;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The scale benchmark ({@link PopulationBench}): a large population with a few clients sampled per round, on a
 * two-member cluster in this JVM with the synthetic model as the fake scorer. Progress goes to stderr (a full run
 * takes minutes), the result to stdout.
 */
@Command(name = "population", mixinStandardHelpOptions = true,
        description = "Heap, rounds/s, bytes between cluster members and the server's update cost for a large "
                + "population with a few clients sampled per round (synthetic model); heap slopes over population "
                + "and sampled clients.")
final class PopulationBenchCommand implements Callable<Integer> {
    private static final double MB = 1024.0 * 1024.0;

    @Option(names = "--population", defaultValue = "10000", description = "Clients in the population (default ${DEFAULT-VALUE}).")
    int population;

    @Option(names = "--sampled", defaultValue = "100", description = "Clients sampled per round (default ${DEFAULT-VALUE}).")
    int sampled;

    @Option(names = "--rounds", defaultValue = "3",
            description = "Timed rounds of the main run, after one warm-up round and before one heap-probe round (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--dimension", defaultValue = "500", description = "d, the dimension of z (default ${DEFAULT-VALUE}).")
    int dimension;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        Logging.configure(false);
        PopulationBench.Settings settings;
        try {
            settings = PopulationBench.Settings.of(population, sampled, dimension, rounds);
        } catch (IllegalArgumentException e) {
            System.err.println("fedbpt: " + e.getMessage());
            return Main.BAD_INPUT;
        }
        System.err.println("population benchmark: " + PopulationBench.TOPOLOGY);
        long start = System.nanoTime();
        PopulationBench.Result result = PopulationBench.run(settings, line -> System.err.println("  " + line));
        double seconds = (System.nanoTime() - start) / 1e9;
        if (json) {
            System.out.println(Json.write(toJson(result, seconds)));
        } else {
            printTable(result, seconds);
        }
        return Main.OK;
    }

    private static Map<String, Object> toJson(PopulationBench.Result result, double seconds) {
        PopulationBench.Settings s = result.settings();
        PopulationBench.ClusterRun main = result.main();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("population", s.population());
        out.put("sampled_per_round", s.sampled());
        out.put("dimension", s.dimension());
        out.put("local_iterations", s.localIterations());
        out.put("lambda", s.lambda());
        out.put("timed_rounds", main.timedRounds());
        out.put("topology", PopulationBench.TOPOLOGY);
        out.put("heap_mb", main.heapEndOfRoundMb());
        out.put("heap_mid_round_mb", main.heapMidRoundMb());
        out.put("rounds_per_s", main.roundsPerSecond());
        out.put("server_update_ms", result.engine().serverUpdateMs());
        out.put("server_prepare_ms", result.engine().serverPrepareMs());
        out.put("client_search_ms", result.engine().clientSearchMs());
        out.put("client_search_shared_start_ms", result.engine().clientSearchSharedStartMs());
        out.put("search_replay_ms", result.engine().searchReplayMs());
        out.put("engine_reps", result.engine().reps());
        out.put("bytes_per_round", main.bytesPerRound());
        out.put("bytes_down_per_sampled_client", main.clientBytes().downPerSampledClient());
        out.put("bytes_up_per_report", main.clientBytes().upPerReport());
        Map<String, Object> byMessage = new LinkedHashMap<>();
        for (PopulationBench.MessageTraffic traffic : main.byMessage()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("messages_per_round", traffic.messagesPerRound());
            entry.put("bytes_per_round", traffic.bytesPerRound());
            entry.put("bytes_per_message", traffic.bytesPerMessage());
            byMessage.put(traffic.type(), entry);
        }
        out.put("bytes_by_message", byMessage);
        PopulationBench.FrameCheck largest = result.largestMessage();
        out.put("largest_message_type", largest.type());
        out.put("largest_message_bytes", largest.bytes());
        out.put("frame_checks", result.frames().stream().map(frame -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("type", frame.type());
            entry.put("recipient", frame.recipient());
            entry.put("bytes", frame.bytes());
            entry.put("channel", frame.largeChannel() ? "large" : "ordinary");
            entry.put("frame_limit_bytes", frame.frameLimitBytes());
            entry.put("fits", frame.fits());
            return entry;
        }).toList());
        out.put("heap_slope_mb_per_1000_population", result.slopeMbPer1000Population());
        out.put("heap_slope_mb_per_sampled_client", result.slopeMbPerSampledClient());
        out.put("heap_slope_end_of_round_mb_per_1000_population", result.endOfRoundSlopeMbPer1000Population());
        out.put("heap_slope_end_of_round_mb_per_sampled_client", result.endOfRoundSlopeMbPerSampledClient());
        out.put("population_series", series(result.populationSeries()));
        out.put("sampled_series", series(result.sampledSeries()));
        out.put("run_folder_bytes_per_round", (double) main.runFolderBytes() / main.roundsRun());
        out.put("seconds", seconds);
        return out;
    }

    private static List<Map<String, Object>> series(List<PopulationBench.ClusterRun> runs) {
        return runs.stream().map(run -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("population", run.population());
            entry.put("sampled", run.sampled());
            entry.put("heap_mb", run.heapEndOfRoundMb());
            entry.put("heap_mid_round_mb", run.heapMidRoundMb());
            return entry;
        }).toList();
    }

    private static void printTable(PopulationBench.Result result, double seconds) {
        PopulationBench.Settings s = result.settings();
        PopulationBench.ClusterRun main = result.main();
        PopulationBench.EngineCosts engine = result.engine();
        System.out.printf(Locale.ROOT, "population %d, %d sampled per round, d = %d, I = %d, lambda = %d, "
                        + "synthetic model%n", s.population(), s.sampled(), s.dimension(), s.localIterations(),
                s.lambda());
        System.out.println(PopulationBench.TOPOLOGY);
        System.out.printf(Locale.ROOT, "%-34s %10.3f   (%d timed rounds after 1 warm-up round)%n", "rounds/s",
                main.roundsPerSecond(), main.timedRounds());
        System.out.printf(Locale.ROOT, "%-34s %10.1f MB (whole JVM, after a full GC, between two rounds; MB = 2^20 B)%n",
                "heap", main.heapEndOfRoundMb());
        System.out.printf(Locale.ROOT, "%-34s %10.1f MB (mid-round: the sampled clients alive)%n", "heap mid-round",
                main.heapMidRoundMb());
        System.out.printf(Locale.ROOT, "%-34s %10.1f ms (engine only, median of %d; %d uploads; what a round waits "
                + "for after its last answer)%n", "server update", engine.serverUpdateMs(), engine.reps(),
                engine.sampled());
        System.out.printf(Locale.ROOT, "%-34s %10.1f ms (decomposition of the global C, computed while the clients "
                + "search)%n", "server prepare", engine.serverPrepareMs());
        System.out.printf(Locale.ROOT, "%-34s %10.1f ms (engine only, fake scorer, own decomposition of C)%n",
                "one client's local search", engine.clientSearchMs());
        System.out.printf(Locale.ROOT, "%-34s %10.1f ms (starting from a shared, decomposed C)%n", "",
                engine.clientSearchSharedStartMs());
        System.out.printf(Locale.ROOT, "%-34s %10.1f ms (from its told fitness values, no model: what a server that"
                + " averages local states does per upload)%n", "that search replayed", engine.searchReplayMs());
        System.out.printf(Locale.ROOT, "%-34s %10.2f x one client's local search%n", "server update / client search",
                engine.serverUpdateMs() / engine.clientSearchMs());
        System.out.printf(Locale.ROOT, "%-34s %10.3f MB per round between members%n", "traffic",
                main.bytesPerRound() / MB);
        for (PopulationBench.MessageTraffic traffic : main.byMessage()) {
            System.out.printf(Locale.ROOT, "  %-32s %10.0f B/round  %6.1f messages/round  %10.0f B each%n",
                    traffic.type(), traffic.bytesPerRound(), traffic.messagesPerRound(), traffic.bytesPerMessage());
        }
        System.out.printf(Locale.ROOT, "%-34s %10.0f B down per sampled client, %.0f B up per report (metrics.jsonl:"
                + " the encoded messages; a client sampled the round before gets the round update, others the whole"
                + " state)%n", "per client", main.clientBytes().downPerSampledClient(),
                main.clientBytes().upPerReport());
        System.out.println("single messages that grow with d, against Artery's frame limit of their channel:");
        for (PopulationBench.FrameCheck frame : result.frames()) {
            System.out.printf(Locale.ROOT, "  %-26s -> %-20s %10d B  %s channel, limit %d B: %s%n", frame.type(),
                    frame.recipient(), frame.bytes(), frame.largeChannel() ? "large" : "ordinary",
                    frame.frameLimitBytes(), frame.fits() ? "fits" : "TOO LARGE");
        }
        System.out.printf(Locale.ROOT, "%-34s %10.3f MB per 1000 population clients (mid-round; %.3f between rounds)%n",
                "heap slope", result.slopeMbPer1000Population(), result.endOfRoundSlopeMbPer1000Population());
        System.out.printf(Locale.ROOT, "%-34s %10.3f MB per sampled client (mid-round; %.3f between rounds)%n", "",
                result.slopeMbPerSampledClient(), result.endOfRoundSlopeMbPerSampledClient());
        for (PopulationBench.ClusterRun run : concat(result.populationSeries(), result.sampledSeries())) {
            System.out.printf(Locale.ROOT, "  population %6d, %4d sampled: %8.1f MB mid-round, %8.1f MB between "
                    + "rounds%n", run.population(), run.sampled(), run.heapMidRoundMb(), run.heapEndOfRoundMb());
        }
        System.out.printf(Locale.ROOT, "%-34s %10.1f KB per round%n", "run folder (journal)",
                main.runFolderBytes() / 1024.0 / main.roundsRun());
        System.out.printf(Locale.ROOT, "(%.0f s in all)%n", seconds);
    }

    private static List<PopulationBench.ClusterRun> concat(List<PopulationBench.ClusterRun> a,
                                                          List<PopulationBench.ClusterRun> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }
}
