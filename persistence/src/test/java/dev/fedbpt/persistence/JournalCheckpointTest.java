package dev.fedbpt.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalCheckpointTest {
    @Test
    void aJournalDumpedWhileOpenIsRebuiltWhereThereIsNone(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("run");
        JournalSchema.open(run, "abc");
        try (Connection open = DriverManager.getConnection(JournalSettings.jdbcUrl(run), "sa", "")) {
            // the running experiment's connection stays open while the dump is taken
            long bytes = JournalCheckpoint.write(run);
            assertEquals(Files.size(JournalCheckpoint.file(run)), bytes);
        }
        Path carried = dir.resolve("carried");
        Files.createDirectories(carried);
        Files.copy(JournalCheckpoint.file(run), JournalCheckpoint.file(carried));

        assertTrue(JournalCheckpoint.restoreIfNoJournal(carried));
        assertTrue(Files.exists(JournalSettings.databaseFile(carried)));
        assertEquals("abc", storedHash(carried));
        JournalSchema.open(carried, "abc"); // the rebuilt journal opens as the run's own
        assertFalse(JournalCheckpoint.restoreIfNoJournal(carried), "an existing journal is never replaced");
        try (var files = Files.list(carried)) {
            assertEquals(2, files.count(), "journal and checkpoint, no temporary files");
        }
    }

    @Test
    void aDamagedCheckpointIsRefusedByNameAndLeavesNoJournal(@TempDir Path run) throws Exception {
        Files.write(JournalCheckpoint.file(run), new byte[] {31, -117, 8, 0, 1, 2, 3});
        JournalException refused = assertThrows(JournalException.class,
                () -> JournalCheckpoint.restoreIfNoJournal(run));
        assertTrue(refused.getMessage().contains(JournalCheckpoint.file(run).toString()), refused.getMessage());
        assertTrue(refused.getMessage().contains("delete it to start the run over"), refused.getMessage());
        assertFalse(Files.exists(JournalSettings.databaseFile(run)));
        try (var files = Files.list(run)) {
            assertEquals(1, files.count(), "only the checkpoint is left");
        }
    }

    @Test
    void withoutACheckpointNothingHappens(@TempDir Path run) {
        assertFalse(JournalCheckpoint.restoreIfNoJournal(run));
        assertFalse(Files.exists(JournalSettings.databaseFile(run)));
    }

    private static String storedHash(Path run) throws Exception {
        try (Connection connection = DriverManager.getConnection(JournalSettings.jdbcUrl(run), "sa", "");
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT \"config_hash\" FROM \"fedbpt_run\"")) {
            row.next();
            return row.getString(1);
        }
    }
}
