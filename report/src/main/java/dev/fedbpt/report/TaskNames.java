package dev.fedbpt.report;

import dev.fedbpt.config.TaskFiles;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The name a run's task goes by in tables, titles and file names. {@code data.task} names a shipped task or gives the
 * path of a task file; neither the run's config.conf nor its result.json holds a task file's name, so it is read from
 * the task file, which a relative path finds beside the folder the run started in (one of the run folder's parents).
 * A file that is not there any more is named by its file name, less {@code .conf}: a path is never a name.
 */
final class TaskNames {
    private static final String TASK_FILE_SUFFIX = ".conf";

    private TaskNames() {}

    /** The name of the task {@code task} ({@code data.task}, null when absent) names for the run in {@code runDir}. */
    static String of(String task, Path runDir) {
        if (task == null || task.isBlank()) {
            return "unknown";
        }
        if (!task.endsWith(TASK_FILE_SUFFIX)) {
            // A shipped task, its name as its file spells it ("SST-2" is sst2).
            return nameOrElse(task, task);
        }
        return ofFile(task, runDir.toAbsolutePath().normalize().getParent());
    }

    private static String ofFile(String task, Path folder) {
        Path path;
        try {
            path = Path.of(task);
        } catch (InvalidPathException e) {
            return task.substring(0, task.length() - TASK_FILE_SUFFIX.length());
        }
        String fileName = path.getFileName() == null ? task : path.getFileName().toString();
        String stem = fileName.substring(0, fileName.length() - TASK_FILE_SUFFIX.length());
        for (Path candidate : candidates(path, folder)) {
            if (Files.isRegularFile(candidate)) {
                return nameOrElse(candidate.toString(), stem);
            }
        }
        return stem;
    }

    /**
     * Where a task file may be: a relative path beside each of the run folder's parents, nearest first (where the run
     * started, not where the report does), then as the path says.
     */
    private static List<Path> candidates(Path path, Path folder) {
        List<Path> candidates = new ArrayList<>();
        if (!path.isAbsolute()) {
            for (Path dir = folder; dir != null; dir = dir.getParent()) {
                candidates.add(dir.resolve(path));
            }
        }
        candidates.add(path);
        return candidates;
    }

    /** The name the task file (or shipped task) {@code task} gives, or {@code fallback} when it cannot be read. */
    private static String nameOrElse(String task, String fallback) {
        try {
            return TaskFiles.load(task).name();
        } catch (RuntimeException e) {
            // A task this fedbpt no longer ships, or a task file that no longer parses: the run still reports.
            return fallback;
        }
    }
}
