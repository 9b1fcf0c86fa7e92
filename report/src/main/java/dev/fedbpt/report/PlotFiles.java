package dev.fedbpt.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * The names of a report's plot files, built from tasks, splits, methods and setting values: parts of letters, digits,
 * '.', '_' and '-' joined by '_', unique within the report's plots folder and short enough for any file system.
 */
final class PlotFiles {
    /** The longest name before the extension; longer ones keep their start and a hash of the whole. */
    static final int MAX_NAME = 120;
    private static final String EXTENSION = ".png";
    private final Set<String> taken = new HashSet<>();

    /**
     * One part of a name: each run of other characters becomes one '-', and no part starts or ends with '-', '.' or
     * '_' (a list value such as {@code [apparel, MR]} gave "-apparel-MR-": a name that starts with '-' reads as an
     * option to the shell's tools, one that starts with '.' is hidden). A part with nothing left is "x".
     */
    static String part(String text) {
        String part = text.replaceAll("[^A-Za-z0-9._-]+", "-").replaceAll("-{2,}", "-")
                .replaceAll("^[-._]+|[-._]+$", "");
        return part.isEmpty() ? "x" : part;
    }

    /** A file name (with {@code .png}) of the parts, each made safe, not given before by this instance. */
    String name(List<String> parts) {
        String base = String.join("_", parts.stream().map(PlotFiles::part).toList());
        if (base.length() > MAX_NAME) {
            String hash = hash(base);
            base = base.substring(0, MAX_NAME - hash.length() - 1).replaceAll("[-._]+$", "") + "-" + hash;
        }
        String name = base + EXTENSION;
        for (int i = 2; !taken.add(name); i++) {
            name = base + "-" + i + EXTENSION;
        }
        return name;
    }

    /** Eight hex digits of the name's SHA-256: the same name in every report, two cut names apart. */
    private static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }
}
