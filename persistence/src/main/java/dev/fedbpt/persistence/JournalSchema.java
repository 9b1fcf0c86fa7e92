package dev.fedbpt.persistence;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Opens a run folder's journal for a configuration: an existing journal is first checked through a copy (so a damaged
 * journal, or one that belongs to another configuration, is refused without a byte of it written), then the tables
 * are created when missing and the configuration's hash and journal format are recorded. A journal of another format
 * is refused before anything is written: its records cannot be read back by this version. Ships its own DDL because
 * the plugin's H2 script creates an index without IF NOT EXISTS and fails on every start after the first.
 */
public final class JournalSchema {
    private static final String DDL = "dev/fedbpt/persistence/h2-schema.sql";

    /**
     * The layout of the journal's records. 1: before methods became plug-ins (the server's state as Jackson
     * records, no format recorded); 2: methods' payloads in their own codecs ({@link PayloadModule}).
     */
    public static final int FORMAT = 2;

    private JournalSchema() {}

    public static void open(Path runDirectory, String configHash) {
        if (Files.exists(JournalSettings.databaseFile(runDirectory))) {
            checkExisting(runDirectory, configHash);
        }
        String ddl = readDdl();
        try (Connection connection = DriverManager.getConnection(JournalSettings.jdbcUrl(runDirectory), "sa", "");
             Statement statement = connection.createStatement()) {
            for (String sql : ddl.split(";")) {
                if (!sql.isBlank()) {
                    statement.execute(sql);
                }
            }
            if (storedHash(connection) == null) {
                try (PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO \"fedbpt_run\" (\"config_hash\", \"journal_format\") VALUES (?, ?)")) {
                    insert.setString(1, configHash);
                    insert.setInt(2, FORMAT);
                    insert.executeUpdate();
                }
            }
        } catch (SQLException e) {
            throw new JournalException("cannot open or create the journal in " + runDirectory.toAbsolutePath()
                    + " (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Reads the stored hash and format from a copy of the journal, opened as the run will open the journal, rather
     * than from the journal opened read-only. A read-only open cannot read a store that H2 created but never
     * initialised (a run killed in its first moments: the store needs its first write). And when H2's read-only
     * open fails part-way, it can keep the file's lock in this JVM (shown with a store whose metadata it cannot
     * parse), so the writable open that follows finds the journal "locked": a resume after a SIGKILL once failed so
     * in CrashResumeTest. Whatever a failed open of the copy leaves behind belongs to a temporary file.
     */
    private static void checkExisting(Path runDirectory, String configHash) {
        Path journal = JournalSettings.databaseFile(runDirectory);
        String stored;
        int format;
        Path copy = null;
        try {
            copy = Files.createTempDirectory("fedbpt-journal-check-");
            Files.copy(journal, JournalSettings.databaseFile(copy));
            try (Connection connection = DriverManager.getConnection(JournalSettings.jdbcUrl(copy), "sa", "")) {
                stored = storedHash(connection);
                format = stored == null ? FORMAT : storedFormat(connection);
            }
        } catch (IOException e) {
            throw new JournalException("cannot copy the journal " + journal + " to check it (" + e.getMessage()
                    + "); it was left untouched", e);
        } catch (SQLException e) {
            throw new JournalException("the journal " + journal + " is damaged or unreadable; it was left untouched ("
                    + firstLine(e.getMessage()) + ")", e);
        } finally {
            deleteQuietly(copy);
        }
        if (format != FORMAT) {
            throw new JournalException("the journal in " + runDirectory.toAbsolutePath() + " is in journal format "
                    + format + (format == 1 ? " (written before methods became plug-ins, with the server's state "
                    + "stored as Jackson records)" : "") + "; this fedbpt reads format " + FORMAT + ". Its "
                    + "metrics.jsonl, result.json and report stay valid; to go on, resume it with the fedbpt that "
                    + "wrote it, or run it again in a new folder. Nothing was changed");
        }
        if (stored != null && !stored.equals(configHash)) {
            throw new JournalException("the journal in " + runDirectory.toAbsolutePath() + " belongs to another "
                    + "configuration (journal " + stored + ", given " + configHash + "); refusing to mix them, "
                    + "nothing was changed");
        }
    }

    /** Removes the checked copy; a leftover stays in the temporary directory, the journal is untouched. */
    private static void deleteQuietly(Path directory) {
        if (directory == null) {
            return;
        }
        try (var files = Files.list(directory)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            // ignored: see above
        }
    }

    /** The hash recorded in the journal, or null when none is (a new journal or one from before it was kept). */
    private static String storedHash(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            ResultSet tables = connection.getMetaData().getTables(null, null, "fedbpt_run", null);
            if (!tables.next()) {
                return null;
            }
            try (ResultSet rows = statement.executeQuery("SELECT \"config_hash\" FROM \"fedbpt_run\"")) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    /** The recorded journal format; 1 for journals from before the format was recorded. */
    private static int storedFormat(Connection connection) throws SQLException {
        try (ResultSet columns = connection.getMetaData().getColumns(null, null, "fedbpt_run", "journal_format")) {
            if (!columns.next()) {
                return 1;
            }
        }
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT \"journal_format\" FROM \"fedbpt_run\"")) {
            return rows.next() ? rows.getInt(1) : FORMAT;
        }
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }

    private static String readDdl() {
        try (InputStream in = JournalSchema.class.getClassLoader().getResourceAsStream(DDL)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + DDL);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read resource " + DDL, e);
        }
    }
}
