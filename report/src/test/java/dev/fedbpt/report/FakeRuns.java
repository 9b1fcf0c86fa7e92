package dev.fedbpt.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Writes run folders like the runner's: config.conf, metrics.jsonl and (when finished) result.json. */
final class FakeRuns {
    private FakeRuns() {}

    static String config(String task, String split, String method, long seed, double perturbationRate, int rounds) {
        return """
                fedbpt {
                    data {
                        dirichlet-alpha = 1.0
                        shots-per-class = 16
                        split = "%s"
                        task = "%s"
                    }
                    experiment {
                        eval-every = 2
                        method = "%s"
                        name = "%s-%s-%d"
                        rounds = %d
                        seed = %d
                    }
                    federation {
                        clients = 4
                        round-deadline = "10 minutes"
                    }
                    pool {
                        workers = 1
                    }
                    search {
                        dimension = 500
                        perturbation-rate = %s
                        sigma0 = 1.0
                        step-rule = "paper-eq6"
                    }
                }
                """.formatted(split, task, method, method, task, seed, rounds, seed, perturbationRate);
    }

    /** A metrics line in the runner's format; {@code accuracy} null for rounds without evaluation. */
    static String metricsLine(int round, double loss, double sigma, Double accuracy, long bytesUp, long bytesDown) {
        return String.format(Locale.ROOT, "{\"round\":%d,\"attempts\":1,\"sampled\":4,\"reported\":4,\"dropped\":0,"
                        + "\"mean_client_loss\":%s,\"sigma\":%s,\"test_accuracy\":%s,\"bytes_up\":%d,\"bytes_down\":%d,"
                        + "\"forward_rows\":26240,\"wall_ms\":9500,\"global_mean_sha256\":\"ab12\",\"future_field\":[1]}",
                round, loss, sigma, accuracy == null ? "null" : accuracy.toString(), bytesUp, bytesDown);
    }

    /** The methods whose result.json records the profile they ran with, as the runner's do. */
    static final java.util.Set<String> PROFILED = java.util.Set.of("fedbpt", "fedavg-bbt", "centralised-bbt");

    /**
     * A run with {@code rounds} rounds of made-up metrics (accuracy on even rounds and the last, reaching
     * {@code finalAccuracy}); finished runs get a result.json (with the paper profile, for a method that has one).
     */
    static Path run(Path dir, String task, String split, String method, long seed, double perturbationRate, int rounds,
                    int planned, double finalAccuracy, boolean finished) {
        StringBuilder metrics = new StringBuilder();
        for (int r = 1; r <= rounds; r++) {
            boolean evaluated = r % 2 == 0 || r == rounds;
            Double accuracy = evaluated ? finalAccuracy - 0.02 * (rounds - r) : null;
            metrics.append(metricsLine(r, 0.9 - 0.05 * r - 0.01 * seed, 1.0 - 0.05 * r, accuracy, 16160, 2004000))
                    .append('\n');
        }
        write(dir.resolve("config.conf"), config(task, split, method, seed, perturbationRate, planned));
        write(dir.resolve("metrics.jsonl"), metrics.toString());
        if (finished) {
            write(dir.resolve("result.json"), String.format(Locale.ROOT, "{\"experiment\":\"x\",\"method\":\"%s\","
                            + (PROFILED.contains(method) ? "\"profile\":\"paper\"," : "")
                            + "\"step_rule\":\"paper-eq6\",\"seed\":%d,\"rounds_completed\":%d,"
                            + "\"zero_shot_accuracy\":0.69,\"final_accuracy\":%s,\"final_sigma\":0.8,"
                            + "\"global_mean_sha256\":\"ab12\",\"config_hash\":\"cd34\"}",
                    method, seed, rounds, finalAccuracy));
        }
        return dir;
    }

    /**
     * Sets {@code fedbpt.key = value} in a fake run's config.conf; the last value set for a key is the one read. The
     * profile goes into its result.json too, where that records one.
     */
    static void setKey(Path run, String key, String value) {
        Path file = run.resolve("config.conf");
        Path result = run.resolve("result.json");
        try {
            write(file, Files.readString(file) + "fedbpt.%s = \"%s\"\n".formatted(key, value));
            if (key.equals("search.profile") && Files.isRegularFile(result)) {
                write(result, Files.readString(result).replaceFirst("\"profile\":\"[^\"]*\"",
                        "\"profile\":\"" + value + "\""));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
