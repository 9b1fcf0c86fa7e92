package dev.fedbpt.cli;

import picocli.CommandLine.Option;

/** The {@code --verbose} flag of the commands that run experiments; {@link #apply} sets up logging from it. */
final class VerboseOption {
    @Option(names = "--verbose", description = "Log what the actors do.")
    boolean verbose;

    void apply() {
        Logging.configure(verbose);
    }
}
