package dev.fedbpt.actors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A small, fast experiment on the synthetic model, and helpers to read a run folder. */
final class TestRuns {
    static final List<String> SMALL = List.of(
            "model.backend=synthetic",
            "search.dimension=24",
            "search.local-iterations=3",
            "search.population=5",
            "federation.clients=4",
            "federation.quorum=0.5",
            "federation.round-deadline=60s",
            "data.shots-per-class=8",
            "experiment.rounds=4",
            "experiment.eval-every=2");

    private TestRuns() {}

    static ExperimentConfig config(String... extra) {
        List<String> overrides = new ArrayList<>(SMALL);
        overrides.addAll(List.of(extra));
        return ConfigLoader.load(null, overrides);
    }

    /** {@code base} followed by {@code more}: override lists built on one another. */
    static String[] concat(String[] base, String... more) {
        List<String> all = new ArrayList<>(List.of(base));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    /** Runs with the faults the configuration asks for. */
    static ExperimentRunner.Outcome run(ExperimentConfig config, Path directory) {
        return ExperimentRunner.run(config, directory, new ConfiguredModels(), line -> {});
    }

    static ExperimentRunner.Outcome run(ExperimentConfig config, Path directory, FaultInjector faults) {
        return ExperimentRunner.run(config, directory, new ConfiguredModels(), faults, line -> {});
    }

    static JsonNode result(Path directory) {
        try {
            return new ObjectMapper().readTree(directory.resolve("result.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<JsonNode> metrics(Path directory) {
        try {
            ObjectMapper mapper = new ObjectMapper();
            List<JsonNode> lines = new ArrayList<>();
            for (String line : Files.readAllLines(directory.resolve("metrics.jsonl"))) {
                lines.add(mapper.readTree(line));
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
