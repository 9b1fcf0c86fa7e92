package dev.fedbpt.actors.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Ports for members started in one process (benchmarks, tests): the seed needs a known one. */
public final class Ports {
    private Ports() {}

    /** A port that was free a moment ago; the member that binds it next is normally the caller's. */
    public static int free() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on this machine", e);
        }
    }
}
