package dev.fedbpt.cli;

import dev.fedbpt.actors.ActiveRuns;
import java.time.Duration;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT end the running experiments first ({@link ActiveRuns#stopAll}) and exit after, as 128 + the
 * signal's number: left to the JVM, the signal runs every shutdown hook at once, ONNX Runtime's (which frees its
 * native environment) beside Akka's (which stops the inference workers), and a worker inside a forward pass crashed
 * the JVM in native code.
 */
final class StopSignals {
    /** Long enough for a forward pass in flight and the journal's last write; a stuck run is left to the JVM. */
    private static final Duration GRACE = Duration.ofSeconds(60);

    private StopSignals() {}

    static void install() {
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), signal -> {
                    ActiveRuns.stopAll(GRACE);
                    System.exit(128 + signal.getNumber());
                });
            } catch (IllegalArgumentException unavailable) {
                // this platform or JVM (-Xrs) keeps the signal; the JVM's own handling applies
            }
        }
    }
}
