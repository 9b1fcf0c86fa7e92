package dev.fedbpt.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code fedbpt bench client-memory}: the peak resident memory of one client's local work, forward-only against
 * backpropagation, each mode in a fresh JVM ({@link ClientMemoryProbe}) with the same heap limit, model, rows and
 * batch, so that one mode's memory never counts in another's.
 */
public final class ClientMemoryBench {
    /** Run in this order: FedBPT first, then the white-box modes from the cheapest. */
    public static final List<String> MODES = List.of("fedbpt", "forward-pytorch", "fedprompt", "fedp-tuning");

    /** One mode's measurement, in MiB. */
    public record Row(String mode, double rssAfterLoadMib, double peakRssMib, double seconds) {}

    private ClientMemoryBench() {}

    public static List<Row> run(int batch, int tokens, int steps, String heap) throws IOException,
            InterruptedException {
        List<Row> rows = new ArrayList<>();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (String mode : MODES) {
            Process p = new ProcessBuilder(java, "-Xmx" + heap, "-Dai.djl.offline=true", "-cp",
                    System.getProperty("java.class.path"), ClientMemoryProbe.class.getName(), mode,
                    Integer.toString(batch), Integer.toString(tokens), Integer.toString(steps))
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                List<String> lines = out.lines().filter(l -> !l.startsWith("\tat ")).toList();
                throw new IllegalStateException("the " + mode + " probe (-Xmx" + heap + ") exited with "
                        + p.exitValue() + ": " + String.join("\n", lines.subList(Math.max(0, lines.size() - 5),
                        lines.size())));
            }
            String last = out.strip().lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElse("");
            JsonNode json = new ObjectMapper().readTree(last);
            rows.add(new Row(mode, json.get("rss_after_load_kib").asLong() / 1024.0,
                    json.get("peak_rss_kib").asLong() / 1024.0, json.get("seconds").asDouble()));
        }
        return rows;
    }
}
