package dev.fedbpt.config;

import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The errors found in one configuration, reported together: a user who set three keys wrong hears of all three in
 * one run, each with the file and line (or the {@code --set}) it came from.
 */
final class ConfigProblems {
    private static final Pattern LINE = Pattern.compile(":(\\d+)$");

    private final List<ConfigError> errors = new ArrayList<>();

    private ConfigError thrown;

    void add(ConfigError error) {
        errors.add(error);
    }

    /** Adds {@code error} unless it is the one {@link #throwIfAny} threw (which lists those found before it). */
    void addUnlessListed(ConfigError error) {
        if (error != thrown && !errors.contains(error)) errors.add(error);
    }

    /** The keys named so far, in the order found. */
    List<String> keys() {
        return errors.stream().map(ConfigError::key).filter(k -> k != null).toList();
    }

    /** Throws the one error, or one that lists them all, one per line. */
    void throwIfAny() {
        if (errors.size() == 1) {
            thrown = errors.get(0);
            throw thrown;
        }
        if (!errors.isEmpty()) {
            StringBuilder all = new StringBuilder(errors.size() + " problems in the configuration:");
            for (ConfigError e : inReadingOrder()) all.append("\n  ").append(e.getMessage());
            thrown = ConfigError.listing(errors.get(0).key(), all.toString());
            throw thrown;
        }
    }

    /** Files first, each by line, then the {@code --set} overrides, then what has no origin: as a user reads them. */
    private List<ConfigError> inReadingOrder() {
        return errors.stream().sorted(Comparator.comparing((ConfigError e) -> rank(e.where()))
                .thenComparing(e -> file(e.where())).thenComparingInt(e -> line(e.where()))).toList();
    }

    private static int rank(String where) {
        return where == null ? 2 : where.startsWith("--set ") ? 1 : 0;
    }

    private static String file(String where) {
        return where == null || where.startsWith("--set ") ? "" : where.replaceFirst(":\\d+$", "");
    }

    private static int line(String where) {
        if (where == null || where.startsWith("--set ")) return 0;
        Matcher m = LINE.matcher(where);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /**
     * Where a value was written: {@code file:line} for a file, {@code --set key=value} for an override, or null
     * for a default.
     */
    static String where(ConfigValue value) {
        ConfigOrigin origin = value.origin();
        if (origin.filename() != null) {
            return origin.lineNumber() > 0 ? origin.filename() + ":" + origin.lineNumber() : origin.filename();
        }
        String description = origin.description();
        return description.startsWith("--set ") ? description.replaceFirst(": \\d+$", "") : null;
    }
}
