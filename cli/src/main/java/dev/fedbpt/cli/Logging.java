package dev.fedbpt.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/** Logs are quiet (warnings only) unless --verbose. */
final class Logging {
    private Logging() {}

    static void configure(boolean verbose) {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(verbose ? Level.INFO : Level.WARN);
    }
}
