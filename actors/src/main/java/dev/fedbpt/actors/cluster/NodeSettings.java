package dev.fedbpt.actors.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One cluster member's settings: where it listens, whom it joins, what it does. They belong to the machine, not to
 * the experiment, so they are not part of the experiment's configuration (nor of its hash).
 *
 * @param seedNodes    {@code host:port} of the members a new member contacts to join (the first one usually
 *                     the server); the same list on every member
 * @param downAfter    how long an unreachable member is given before the others remove it (split-brain
 *                     resolver, keep-majority); its shards then move to the remaining members
 * @param inferenceWait how long requests wait for an inference pool when there is none before they fail
 * @param tls          encrypt cluster traffic and admit only members with a certificate the trust store trusts;
 *                     null for plain TCP
 */
public record NodeSettings(String host, int port, List<String> seedNodes, Set<Role> roles, Duration downAfter,
                           Duration inferenceWait, Tls tls) {

    public static final String SYSTEM_NAME = "fedbpt";

    public enum Role {
        SERVER, CLIENTS, INFERENCE;

        /** The name used in Akka's configuration and on the command line. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Role parse(String text) {
            for (Role role : values()) {
                if (role.id().equals(text.trim().toLowerCase(Locale.ROOT))) {
                    return role;
                }
            }
            throw new IllegalArgumentException("unknown role '" + text + "'; expected server, clients or inference");
        }
    }

    /** Keys and certificates for Artery's TLS transport; stores in PKCS12 (or the JVM's default keystore type). */
    public record Tls(Path keyStore, String keyStorePassword, Path trustStore, String trustStorePassword) {}

    public NodeSettings {
        if (roles == null || roles.isEmpty()) {
            throw new IllegalArgumentException("a cluster member needs at least one role (server, clients, inference)");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be in 0..65535 (0: any free port), was " + port);
        }
        if (seedNodes == null || seedNodes.isEmpty()) {
            throw new IllegalArgumentException("at least one seed node (host:port) is needed");
        }
        for (String seed : seedNodes) {
            if (!seed.matches("[^:\\s]+:\\d{1,5}")) {
                throw new IllegalArgumentException("seed node '" + seed + "' is not host:port");
            }
        }
        roles = Set.copyOf(EnumSet.copyOf(roles));
        seedNodes = List.copyOf(seedNodes);
    }

    public boolean has(Role role) {
        return roles.contains(role);
    }

    /** This member's Akka configuration, to be layered over the application's. */
    public Config akkaConfig() {
        Config config = ConfigFactory.parseString("""
                akka.actor.provider = cluster
                akka.remote.artery.canonical.hostname = "%s"
                akka.remote.artery.canonical.port = %d
                akka.cluster.downing-provider-class = "akka.cluster.sbr.SplitBrainResolverProvider"
                akka.cluster.split-brain-resolver.active-strategy = keep-majority
                akka.cluster.split-brain-resolver.stable-after = %d ms
                # The server starts the experiment only when a clients member and an inference member are up.
                akka.cluster.role.clients.min-nr-of-members = 1
                akka.cluster.role.inference.min-nr-of-members = 1
                akka.cluster.jmx.enabled = off
                akka.cluster.log-info-verbose = off
                # A round's downlink may be large (a d x d covariance is about 2 MB at d = 500): it travels once per
                # member and round, on the large-message channel, to the member's round-state cache. Uploads may be
                # as large (a client's whole local state) and go to the server on the same channel.
                akka.remote.artery.large-message-destinations = ["%s", "%s"]
                akka.remote.artery.advanced.maximum-large-frame-size = 16 MiB
                akka.remote.artery.advanced.large-buffer-pool-size = 8
                # Jackson reads only classes it is bound to; MeteredCborSerializer wraps it (see reference.conf).
                # Set here, over every reference.conf, as akka's own would win on some classpath orders.
                akka.serialization.jackson.allowed-class-prefix = ["dev.fedbpt."]
                """.formatted(host, port, downAfter.toMillis(), RoundStates.PATH, ClusterNode.SERVER_PATH))
                .withValue("akka.cluster.seed-nodes", ConfigValueFactory.fromIterable(seedNodes.stream()
                        .map(seed -> "akka://" + SYSTEM_NAME + "@" + seed).toList()))
                .withValue("akka.cluster.roles", ConfigValueFactory.fromIterable(roles.stream().map(Role::id)
                        .sorted().toList()));
        return tls == null ? config : tlsConfig().withFallback(config);
    }

    private Config tlsConfig() {
        String engine = "akka.remote.artery.ssl.config-ssl-engine.";
        return ConfigFactory.parseString("akka.remote.artery.transport = tls-tcp\n"
                        + engine + "require-mutual-authentication = on\n"
                        + engine + "protocol = \"TLSv1.3\"\n"
                        + engine + "enabled-algorithms = [TLS_AES_256_GCM_SHA384, TLS_AES_128_GCM_SHA256]\n")
                .withValue(engine + "key-store", ConfigValueFactory.fromAnyRef(tls.keyStore().toAbsolutePath()
                        .toString()))
                .withValue(engine + "key-store-password", ConfigValueFactory.fromAnyRef(tls.keyStorePassword()))
                .withValue(engine + "key-password", ConfigValueFactory.fromAnyRef(tls.keyStorePassword()))
                .withValue(engine + "trust-store", ConfigValueFactory.fromAnyRef(tls.trustStore().toAbsolutePath()
                        .toString()))
                .withValue(engine + "trust-store-password", ConfigValueFactory.fromAnyRef(tls.trustStorePassword()));
    }
}
