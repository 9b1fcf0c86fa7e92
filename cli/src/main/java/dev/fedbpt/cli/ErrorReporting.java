package dev.fedbpt.cli;

import dev.fedbpt.config.ConfigError;
import dev.fedbpt.engine.data.DatasetFormatException;
import dev.fedbpt.inference.ModelLoadException;
import dev.fedbpt.persistence.JournalException;
import picocli.CommandLine;

/** Turns the errors users cause into one clear line and exit code 2; everything else is a failure (exit 1). */
final class ErrorReporting implements CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception ex, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        Throwable cause = ex;
        while (cause.getCause() != null && !isUserError(cause)) {
            cause = cause.getCause();
        }
        if (isUserError(cause)) {
            commandLine.getErr().println("fedbpt: " + cause.getMessage());
            return Main.BAD_INPUT;
        }
        commandLine.getErr().println("fedbpt: failed: " + ex);
        ex.printStackTrace(commandLine.getErr());
        return Main.FAILURE;
    }

    private static boolean isUserError(Throwable t) {
        return t instanceof ConfigError || t instanceof DatasetFormatException || t instanceof ModelLoadException
                || t instanceof JournalException;
    }
}
