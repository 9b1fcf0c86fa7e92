package dev.fedbpt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** `fedbpt node` refuses bad member settings with exit code 2 and a message naming the flag, before joining. */
class NodeCommandTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final ConsoleCapture console = new ConsoleCapture();

    @Test
    void unknownRoleIsBadInput() {
        assertEquals(Main.BAD_INPUT, Main.execute("node", "--role", "server,gpu", "--seed-nodes", "127.0.0.1:2551"));
        assertTrue(console.stderr().contains("unknown role 'gpu'"), console.stderr());
    }

    @Test
    void seedNodeMustBeHostAndPort() {
        assertEquals(Main.BAD_INPUT, Main.execute("node", "--role", "clients", "--seed-nodes", "127.0.0.1"));
        assertTrue(console.stderr().contains("seed node '127.0.0.1' is not host:port"), console.stderr());
    }

    @Test
    void runFolderBelongsToTheServer() {
        assertEquals(Main.BAD_INPUT, Main.execute("node", "--role", "clients", "--seed-nodes", "127.0.0.1:2551",
                "--out", dir.toString()));
        assertTrue(console.stderr().contains("--out belongs to the server's member"), console.stderr());
    }

    @Test
    void tlsNeedsBothStores() throws Exception {
        Path keys = Files.createFile(dir.resolve("member.p12"));
        assertEquals(Main.BAD_INPUT, Main.execute("node", "--role", "clients", "--seed-nodes", "127.0.0.1:2551",
                "--key-store", keys.toString()));
        assertTrue(console.stderr().contains("TLS needs both --key-store and --trust-store"), console.stderr());
    }

    @Test
    void badDurationNamesTheFlag() {
        assertEquals(Main.BAD_INPUT, Main.execute("node", "--role", "clients", "--seed-nodes", "127.0.0.1:2551",
                "--down-after", "soon"));
        assertTrue(console.stderr().contains("--down-after expects a duration"), console.stderr());
    }

    @Test
    void aPortInUseIsBadInputNamingIt() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            String port = Integer.toString(taken.getLocalPort());
            assertEquals(Main.BAD_INPUT, Main.execute("node", "--role", "clients", "--port", port, "--seed-nodes",
                    "127.0.0.1:" + port, "--set", "model.backend=synthetic"));
            assertTrue(console.stderr().contains("cannot listen on 127.0.0.1:" + port), console.stderr());
        }
    }
}
