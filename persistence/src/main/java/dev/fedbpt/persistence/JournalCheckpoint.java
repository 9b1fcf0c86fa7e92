package dev.fedbpt.persistence;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A portable copy of a run's journal: the H2 database dumped as a gzipped SQL script ({@value #FILE}) beside it in
 * the run folder. The journal itself is a binary file that version control ignores and a fresh machine does not
 * have; the checkpoint is small enough to commit, so a cell that takes longer than one working session can stop on
 * one machine and resume on another. A run that finds a checkpoint and no journal rebuilds the journal from it and
 * continues from the checkpoint's round, exactly as it continues after a kill at that point.
 *
 * <p>Both directions go through temporary names (the dump under {@code .tmp}, the rebuilt database under
 * {@code journal.restoring}), moved into place only when complete, so a kill at any moment leaves either the old
 * file or the new one, never half of one.
 */
public final class JournalCheckpoint {
    /** The checkpoint's file name in a run folder. */
    public static final String FILE = "checkpoint.sql.gz";
    private static final String RESTORING = "journal.restoring";

    private JournalCheckpoint() {}

    public static Path file(Path runDirectory) {
        return runDirectory.toAbsolutePath().resolve(FILE);
    }

    /**
     * Dumps the run folder's journal into its checkpoint, replacing an older one. The journal may be open in this
     * JVM (the running experiment's connections): H2 then shares the open database, and the dump is one
     * transaction's consistent view of it.
     *
     * @return the checkpoint's size in bytes
     */
    public static long write(Path runDirectory) {
        Path target = file(runDirectory);
        Path temporary = target.resolveSibling(FILE + ".tmp");
        try (Connection connection = DriverManager.getConnection(JournalSettings.jdbcUrl(runDirectory), "sa", "");
             Statement statement = connection.createStatement()) {
            Files.deleteIfExists(temporary);
            statement.execute("SCRIPT TO " + literal(temporary) + " COMPRESSION GZIP");
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return Files.size(target);
        } catch (SQLException e) {
            throw new JournalException("cannot write the checkpoint " + target + " of the journal in "
                    + runDirectory.toAbsolutePath() + " (" + e.getMessage() + ")", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the checkpoint " + target, e);
        }
    }

    /**
     * Rebuilds the journal from the checkpoint when the folder has a checkpoint and no journal.
     *
     * @return whether it did
     * @throws JournalException naming the checkpoint when it cannot be read (damaged or not a checkpoint); the
     *                          folder is left as it was
     */
    public static boolean restoreIfNoJournal(Path runDirectory) {
        Path checkpoint = file(runDirectory);
        Path journal = JournalSettings.databaseFile(runDirectory);
        if (Files.exists(journal) || !Files.isRegularFile(checkpoint)) {
            return false;
        }
        Path restoring = runDirectory.toAbsolutePath().resolve(RESTORING + ".mv.db");
        try {
            Files.deleteIfExists(restoring); // what a restore killed part-way left
            try (Connection connection = DriverManager.getConnection(
                    JournalSettings.jdbcUrl(runDirectory, RESTORING), "sa", "");
                 Statement statement = connection.createStatement()) {
                statement.execute("RUNSCRIPT FROM " + literal(checkpoint) + " COMPRESSION GZIP");
                statement.execute("SHUTDOWN");
            } catch (SQLException e) {
                Files.deleteIfExists(restoring);
                throw new JournalException("cannot rebuild the journal from the checkpoint " + checkpoint
                        + " (damaged, or not a journal checkpoint: " + firstLine(e) + "); delete it to start the "
                        + "run over", e);
            }
            Files.move(restoring, journal, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rebuild the journal from the checkpoint " + checkpoint, e);
        }
    }

    /** Deletes the checkpoint (a finished run's outcome is its result and metrics). */
    public static void delete(Path runDirectory) {
        try {
            Files.deleteIfExists(file(runDirectory));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the checkpoint " + file(runDirectory), e);
        }
    }

    private static String literal(Path path) {
        return "'" + path.toAbsolutePath().toString().replace("'", "''") + "'";
    }

    private static String firstLine(SQLException e) {
        String message = String.valueOf(e.getMessage());
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
