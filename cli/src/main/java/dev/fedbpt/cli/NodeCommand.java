package dev.fedbpt.cli;

import dev.fedbpt.actors.ConfiguredModels;
import dev.fedbpt.actors.SeededFaults;
import dev.fedbpt.actors.cluster.ClusterNode;
import dev.fedbpt.actors.cluster.NodeSettings;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "node", mixinStandardHelpOptions = true,
        description = {"Start one member of a fedbpt cluster (see docs/CLUSTER.md).",
                "Every member takes the same experiment (--config/--set); the server's member keeps the run folder "
                        + "(--out) and starts the experiment once a clients and an inference member are up. "
                        + "Starting the server's member again on the same --out resumes the run."})
final class NodeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--role", required = true, split = ",", paramLabel = "ROLE",
            description = "server, clients and/or inference (comma-separated), e.g. --role server,inference.")
    List<String> roles;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address this member listens on and is "
            + "reached at (default ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "2551", description = "Port (0: any free one; default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--seed-nodes", required = true, split = ",", paramLabel = "HOST:PORT",
            description = "Members to join through, the same list on every member (usually the server's).")
    List<String> seedNodes;

    @Option(names = "--config", paramLabel = "FILE", description = "Experiment file (HOCON); the same on every member.")
    Path config;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override an experiment key (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "Server only: the run folder (default: runs/<time>).")
    Path out;

    @Option(names = "--down-after", defaultValue = "10s", paramLabel = "DURATION",
            description = "How long an unreachable member is given before it is removed and its shards move "
                    + "(default ${DEFAULT-VALUE}).")
    String downAfter;

    @Option(names = "--inference-wait", defaultValue = "60s", paramLabel = "DURATION",
            description = "How long to wait for an inference member when there is none before giving up "
                    + "(default ${DEFAULT-VALUE}).")
    String inferenceWait;

    @Option(names = "--key-store", paramLabel = "FILE", description = "TLS: this member's key and certificate "
            + "(PKCS12); password in FEDBPT_KEY_STORE_PASSWORD. With --trust-store, traffic is encrypted and only "
            + "members with a trusted certificate can join.")
    Path keyStore;

    @Option(names = "--trust-store", paramLabel = "FILE", description = "TLS: the certificates of trusted members "
            + "(PKCS12); password in FEDBPT_TRUST_STORE_PASSWORD.")
    Path trustStore;

    @Mixin
    VerboseOption logging;

    @Override
    public Integer call() {
        logging.apply();
        NodeSettings node = settings();
        ExperimentConfig experiment = ConfigLoader.load(config, overrides);
        if (node.has(NodeSettings.Role.SERVER)) {
            Path directory = out != null ? out
                    : Runs.newFolder("");
            return Runs.execute(experiment, directory, progress -> start(node, experiment, directory, progress)
                    .awaitOutcome());
        }
        System.out.println("fedbpt: cluster member " + host + ":" + port + " as " + roles + ", joining "
                + seedNodes);
        start(node, experiment, null, line -> System.out.println("  " + line)).awaitOutcome();
        System.out.println("fedbpt: this member has stopped (the server's member left, or this one was stopped)");
        return Main.OK;
    }

    private ClusterNode start(NodeSettings node, ExperimentConfig experiment, Path directory,
                              java.util.function.Consumer<String> progress) {
        try {
            return ClusterNode.start(node, experiment, directory, new ConfiguredModels(),
                    SeededFaults.from(experiment), progress);
        } catch (RuntimeException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof java.net.BindException) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "cannot listen on " + host + ":"
                            + port + " (--host/--port): " + cause.getMessage()
                            + "; is another member or program using it?");
                }
            }
            throw e;
        }
    }

    private NodeSettings settings() {
        try {
            Set<NodeSettings.Role> parsed = EnumSet.noneOf(NodeSettings.Role.class);
            roles.forEach(role -> parsed.add(NodeSettings.Role.parse(role)));
            if (out != null && !parsed.contains(NodeSettings.Role.SERVER)) {
                throw new IllegalArgumentException("--out belongs to the server's member (the run folder is there)");
            }
            return new NodeSettings(host, port, seedNodes, parsed, duration("--down-after", downAfter),
                    duration("--inference-wait", inferenceWait), tls());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private NodeSettings.Tls tls() {
        if (keyStore == null && trustStore == null) {
            return null;
        }
        if (keyStore == null || trustStore == null) {
            throw new IllegalArgumentException("TLS needs both --key-store and --trust-store");
        }
        for (Path store : List.of(keyStore, trustStore)) {
            if (!Files.isRegularFile(store)) {
                throw new IllegalArgumentException("no such key or trust store: " + store.toAbsolutePath());
            }
        }
        return new NodeSettings.Tls(keyStore, password("FEDBPT_KEY_STORE_PASSWORD"), trustStore,
                password("FEDBPT_TRUST_STORE_PASSWORD"));
    }

    /** Passwords come from the environment, never the command line, where other users' `ps` would show them. */
    private static String password(String variable) {
        String value = System.getenv(variable);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("TLS is on but " + variable + " is not set");
        }
        return value;
    }

    private static Duration duration(String flag, String text) {
        try {
            return com.typesafe.config.ConfigFactory.parseString("d = " + text).getDuration("d");
        } catch (com.typesafe.config.ConfigException e) {
            throw new IllegalArgumentException(flag + " expects a duration such as 10s or 2m, got '" + text + "'");
        }
    }
}
