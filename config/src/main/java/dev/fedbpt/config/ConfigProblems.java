package dev.fedbpt.config;

import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The errors found in one configuration, reported together: a user who set three keys wrong hears of all three in
 * one run, each with the file and line (or the {@code --set}) it came from.
 */
final class ConfigProblems {
    /** An error and where its value was written, in the order a user reads a configuration. */
    private record Problem(ConfigError error, int rank, String file, int line) {
        /** Files first, each by line, then the {@code --set} overrides, then what has no origin. */
        static final Comparator<Problem> READING_ORDER = Comparator.comparingInt(Problem::rank)
                .thenComparing(Problem::file).thenComparingInt(Problem::line);
    }

    private final List<Problem> problems = new ArrayList<>();

    private ConfigError thrown;

    /** Records a problem with {@code value}, named by its file and line or its {@code --set}. */
    void add(ConfigValue value, String key, String message) {
        ConfigOrigin origin = value.origin();
        String description = origin.description();
        if (origin.filename() != null) {
            int line = Math.max(origin.lineNumber(), 0);
            String where = line > 0 ? origin.filename() + ":" + line : origin.filename();
            problems.add(new Problem(new ConfigError(where, key, message), 0, origin.filename(), line));
        } else if (description.startsWith("--set ")) {
            String where = description.replaceFirst(": \\d+$", "");
            problems.add(new Problem(new ConfigError(where, key, message), 1, "", 0));
        } else {
            add(new ConfigError(key, message));
        }
    }

    /** Records {@code error}, which names no place of its own. */
    void add(ConfigError error) {
        problems.add(new Problem(error, 2, "", 0));
    }

    /** Adds {@code error} unless it is the one {@link #throwIfAny} threw (which lists those found before it). */
    void addUnlessListed(ConfigError error) {
        if (error != thrown && problems.stream().noneMatch(p -> p.error() == error)) add(error);
    }

    /** The keys named so far, in the order found. */
    List<String> keys() {
        return problems.stream().map(p -> p.error().key()).filter(k -> k != null).toList();
    }

    /** Throws the one error, or one that lists them all, one per line. */
    void throwIfAny() {
        if (problems.size() == 1) {
            thrown = problems.get(0).error();
            throw thrown;
        }
        if (!problems.isEmpty()) {
            StringBuilder all = new StringBuilder(problems.size() + " problems in the configuration:");
            problems.stream().sorted(Problem.READING_ORDER)
                    .forEach(p -> all.append("\n  ").append(p.error().getMessage()));
            thrown = ConfigError.listing(problems.get(0).error().key(), all.toString());
            throw thrown;
        }
    }
}
