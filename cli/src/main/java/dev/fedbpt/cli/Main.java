package dev.fedbpt.cli;

import dev.fedbpt.benchmarks.BenchCommands;
import dev.fedbpt.engine.method.Methods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code fedbpt} command. Exit codes: 0 success, 1 failure, 2 bad input. */
@Command(name = "fedbpt", mixinStandardHelpOptions = true, version = "fedbpt 0.1.0",
        description = "Federated black-box prompt tuning of language models.",
        subcommands = {RunCommand.class, ResumeCommand.class, CheckpointCommand.class, ModelCheckCommand.class,
                BenchCommand.class, NodeCommand.class,
                SweepCommand.class, ReportCommand.class, ChaosCommand.class,
                CommandLine.HelpCommand.class})
public final class Main {
    public static final int OK = 0;
    public static final int FAILURE = 1;
    public static final int BAD_INPUT = 2;
    /** Where the defaults file lives in a checkout, for help texts. */
    static final String DEFAULTS_FILE = "config/src/main/resources/fedbpt-defaults.conf";

    public static void main(String[] args) {
        StopSignals.install();
        System.exit(execute(args));
    }

    public static int execute(String... args) {
        CommandLine commandLine = new CommandLine(new Main());
        CommandLine bench = commandLine.getSubcommands().get("bench");
        BenchCommands.all().forEach(bench::addSubcommand);
        commandLine.getSubcommands().get("run").getCommandSpec().usageMessage().footer(
                "", "Methods (experiment.method): " + String.join(", ", Methods.names()) + ".",
                "Every key, its default and its meaning: " + DEFAULTS_FILE + ".");
        commandLine.setExecutionExceptionHandler(new ErrorReporting());
        commandLine.setParameterExceptionHandler((ex, arguments) -> {
            ex.getCommandLine().getErr().println("fedbpt: " + ex.getMessage());
            ex.getCommandLine().usage(ex.getCommandLine().getErr());
            configFileHint(ex).ifPresent(ex.getCommandLine().getErr()::println);
            return BAD_INPUT;
        });
        return commandLine.execute(args);
    }

    /**
     * "fedbpt run experiments/x.conf" is the likeliest slip: a command that takes {@code --config} was given an
     * existing file as a bare argument. Said after the usage, where it is read last.
     */
    private static Optional<String> configFileHint(CommandLine.ParameterException ex) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException unmatched)
                || ex.getCommandLine().getCommandSpec().findOption("--config") == null) {
            return Optional.empty();
        }
        return unmatched.getUnmatched().stream()
                .filter(argument -> !argument.startsWith("-") && Files.isRegularFile(Path.of(argument)))
                .findFirst()
                .map(file -> "fedbpt: an experiment file is given with --config: fedbpt "
                        + ex.getCommandLine().getCommandName() + " --config " + file);
    }
}
