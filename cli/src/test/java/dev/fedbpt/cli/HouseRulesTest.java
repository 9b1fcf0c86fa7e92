package dev.fedbpt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules of the house that the compiler cannot check, checked on the sources in every build: the method seam
 * holds (no framework module names a method or reads a method's settings), the engine stays free of I/O, actors and
 * models, and the probes under {@code experiments/probes} still compile against today's classes. This module's tests
 * run last in the reactor, with every module's sources beside them.
 */
class HouseRulesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** Names of methods, their packages and their optimiser, as the framework must never write them. */
    private static final Pattern METHOD_NAMES = Pattern.compile("Cmaes|CMA-ES|CMAES|cmaes|[sS]igma|engine\\.fedbpt"
            + "|engine\\.fedbbpt|engine\\.dlsec|DlsEc|\"dls-ec\"|FedAvg|FEDAVG|FedBpt|FEDBPT|FED_BBPT|FedBbpt"
            + "|CENTRALISED|BDPL|\"fedbpt\"|\"fedavg-bbt\"|\"fed-bbpt\"|\"bdpl\"|\"centralised-bbt\"|\"zero-shot\""
            + "|\"icl\"|engine\\.gradient|FedAvgPrompt|\"fedprompt\"|\"fedp-tuning\"|engine\\.fedpeptao|PepTao"
            + "|\"fedpeptao\"");

    /** The product's own name where it is not a method's: the actor system, the config root, the key stores. */
    private static final Pattern PRODUCT_NAME = Pattern.compile("ActorSystem.create\\(guardian, \"fedbpt\""
            + "|SYSTEM_NAME = \"fedbpt\"|ROOT = \"fedbpt\"|name = \"fedbpt\"|FEDBPT_(KEY|TRUST)_STORE"
            + "|hasPath\\(\"fedbpt\"\\)|getConfig\\(\"fedbpt\"\\)");

    /** A method's own settings, which only its package reads. */
    private static final Pattern METHOD_KEYS = Pattern.compile("\"(search|gradient|fedpeptao|dls-ec|fed-bbpt|bbt)\\.");

    private static final Pattern FORBIDDEN_IN_ENGINE = Pattern.compile(
            "^import (static )?(akka\\.|ai\\.djl\\.|java\\.nio\\.file\\.|java\\.io\\.(File|.*Stream|.*Reader|.*Writer)"
                    + "|java\\.net\\.|java\\.sql\\.|org\\.slf4j\\.|com\\.typesafe\\.)");

    @Test
    void noFrameworkModuleNamesAMethodOrReadsItsSettings() {
        List<String> hits = new ArrayList<>();
        for (String module : List.of("actors", "persistence", "report", "cli", "whitebox", "config")) {
            boolean readsSettings = !module.equals("report") && !module.equals("cli");
            forEachLine(module, (where, line) -> {
                if (METHOD_NAMES.matcher(line).find() && !PRODUCT_NAME.matcher(line).find()) hits.add(where + line);
                else if (readsSettings && METHOD_KEYS.matcher(line).find()) hits.add(where + line);
            });
        }
        assertEquals(List.of(), hits, "the method seam (engine.method) is meant to make these unnecessary: "
                + "a method's names and settings belong to its package");
    }

    /**
     * The engine's one way out: the dataset readers of {@code engine.data}, which open the files a configuration
     * names. They are not part of any method's computation; the rule holds for every other class.
     */
    private static final Pattern DATASET_READERS = Pattern.compile(
            "^engine/src/main/java/dev/fedbpt/engine/data/(DatasetReaders|SampleData|LineCursor|ColumnReader)\\.java:");

    @Test
    void theEngineReadsNoFilesAndImportsNoActorsModelsOrLogging() {
        List<String> hits = new ArrayList<>();
        forEachLine("engine", (where, line) -> {
            if (FORBIDDEN_IN_ENGINE.matcher(line).find() && !DATASET_READERS.matcher(where).find()) {
                hits.add(where + line);
            }
        });
        assertEquals(List.of(), hits, "the engine is plain Java: its callers do the I/O");
    }

    @Test
    void theProbesCompileAgainstTodaysClasses(@TempDir Path out) throws IOException {
        List<String> probes;
        try (Stream<Path> files = Files.list(ROOT.resolve("experiments/probes"))) {
            probes = files.filter(f -> f.toString().endsWith(".java")).map(Path::toString).sorted().toList();
        }
        assertTrue(!probes.isEmpty(), "no probes found under " + ROOT.resolve("experiments/probes"));
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertNotNull(compiler, "a JDK is needed to compile the probes");
        StringWriter diagnostics = new StringWriter();
        List<String> options = List.of("-d", out.toString(), "-proc:none", "-cp", testClassPath());
        var fileManager = compiler.getStandardFileManager(null, null, null);
        boolean compiled = compiler.getTask(diagnostics, fileManager, null, options, null,
                fileManager.getJavaFileObjectsFromStrings(probes)).call();
        assertTrue(compiled, "experiments/probes no longer compile:\n" + diagnostics);
    }

    /** The classpath surefire runs these tests with: every module's classes and every dependency. */
    private static String testClassPath() {
        String path = System.getProperty("surefire.test.class.path");
        return path != null ? path : System.getProperty("java.class.path");
    }

    private interface LineVisitor {
        void visit(String where, String line);
    }

    private static void forEachLine(String module, LineVisitor visitor) {
        Path sources = ROOT.resolve(module).resolve("src/main/java");
        assertTrue(Files.isDirectory(sources), "no sources at " + sources);
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(file);
                String name = ROOT.relativize(file).toString();
                for (int i = 0; i < lines.size(); i++) visitor.visit(name + ":" + (i + 1) + ": ", lines.get(i));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
