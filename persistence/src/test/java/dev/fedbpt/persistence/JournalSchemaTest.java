package dev.fedbpt.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalSchemaTest {
    /**
     * H2's open of this store fails part-way (a map id in its metadata that is not hex: "map.g" where "map.2" was)
     * and keeps the file's lock in the JVM; checking the journal in place made the next open of the same journal
     * report it "locked". The check reads a copy, so the journal is refused as damaged, left as it was, and not
     * locked by this JVM.
     */
    @Test
    void aJournalThatH2CannotOpenIsRefusedUntouchedAndLeftUnlocked(@TempDir Path run) throws Exception {
        JournalSchema.open(run, "abc");
        Path journal = JournalSettings.databaseFile(run);
        Files.write(journal, replaceAll(Files.readAllBytes(journal), "map.2", "map.g"));
        byte[] before = Files.readAllBytes(journal);

        JournalException refused = assertThrows(JournalException.class, () -> JournalSchema.open(run, "abc"));
        assertTrue(refused.getMessage().contains("damaged or unreadable"), refused.getMessage());
        assertTrue(refused.getMessage().contains("left untouched"), refused.getMessage());
        assertArrayEquals(before, Files.readAllBytes(journal));
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock lock = assertDoesNotThrow(() -> channel.tryLock(), "this JVM still holds the journal's lock");
            assertTrue(lock != null, "another process holds the journal's lock");
            lock.release();
        }
    }

    private static byte[] replaceAll(byte[] bytes, String from, String to) {
        byte[] pattern = from.getBytes(StandardCharsets.US_ASCII);
        byte[] replacement = to.getBytes(StandardCharsets.US_ASCII);
        int replaced = 0;
        for (int i = 0; i + pattern.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + pattern.length, pattern, 0, pattern.length)) {
                System.arraycopy(replacement, 0, bytes, i, replacement.length);
                replaced++;
            }
        }
        assertTrue(replaced > 0, "the store's metadata names map 2");
        return bytes;
    }

    /**
     * A run killed in its first moments, after H2 created the file and before it wrote the store's header, leaves an
     * empty journal (found so: the resume that followed failed in CrashResumeTest, the journal "locked"). H2's
     * read-only open tries to write the header, fails and keeps the lock; it holds nothing, so it opens as new.
     */
    @Test
    void aJournalFileLeftEmptyByAKillOpensAsANewJournal(@TempDir Path run) throws Exception {
        Files.createFile(JournalSettings.databaseFile(run));
        assertOpensAsANewJournal(run);
    }

    /**
     * A run killed a moment later leaves a store H2 initialised without a database in it; a read-only open fails for
     * want of a write. It holds nothing either, so it opens as a new journal instead of being refused as damaged on
     * every later start (which once made a kill-and-resume test loop for ever).
     */
    @Test
    void aJournalFileCreatedButNeverInitialisedOpensAsANewJournal(@TempDir Path run) throws Exception {
        Files.createDirectories(run);
        MVStore.open(JournalSettings.databaseFile(run).toString()).close(); // a store without a database in it
        assertOpensAsANewJournal(run);
    }

    /** Opens, opens again, and then belongs to the configuration it was opened for. */
    private static void assertOpensAsANewJournal(Path run) {
        JournalSchema.open(run, "abc");
        JournalSchema.open(run, "abc");
        JournalException other = assertThrows(JournalException.class, () -> JournalSchema.open(run, "xyz"));
        assertTrue(other.getMessage().contains("another configuration"), other.getMessage());
    }
}
