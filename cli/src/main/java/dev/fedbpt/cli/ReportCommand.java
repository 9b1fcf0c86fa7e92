package dev.fedbpt.cli;

import dev.fedbpt.report.Report;
import dev.fedbpt.report.ReportInputException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write report.html, results.md and plots/*.png from run folders.",
                "Each DIR is a run folder or a folder searched for run folders (those holding result.json or "
                        + "metrics.jsonl). Runs that differ only by seed are averaged over their distinct seeds "
                        + "(folders that ran one seed count once); unfinished runs are included with the rounds they "
                        + "completed."})
final class ReportCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Run folders, or folders holding run folders.")
    List<Path> inputs;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write the report (default: the first DIR).")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Path outDir = out != null ? out : inputs.get(0);
        Report.Written written;
        try {
            written = Report.write(inputs, outDir);
        } catch (ReportInputException e) {
            // Bad input, reported like ErrorReporting does for the other commands' user errors.
            spec.commandLine().getErr().println("fedbpt: " + e.getMessage());
            return Main.BAD_INPUT;
        }
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.printf("fedbpt: report of %d run(s) in %d series%s%n", written.runs(), written.series(),
                written.unfinished() > 0 ? " (" + written.unfinished() + " unfinished)" : "");
        stdout.println("  html:   " + written.html());
        stdout.println("  table:  " + written.markdown());
        stdout.println("  plots:  " + written.plots().size() + " PNG file(s) in " + outDir.resolve(Report.PLOTS_DIR));
        stdout.flush();
        return Main.OK;
    }
}
