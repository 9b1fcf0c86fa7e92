package dev.fedbpt.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import akka.actor.Address;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.Member;
import akka.cluster.MemberStatus;
import akka.cluster.typed.Cluster;
import dev.fedbpt.actors.AkkaDefaults;
import dev.fedbpt.actors.cluster.NodeSettings.Role;
import dev.fedbpt.actors.cluster.NodeSettings.Tls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Artery TLS with mutual authentication: members whose certificate the trust store trusts form a cluster; a member
 * with a different (self-signed, untrusted) certificate cannot join, even though it trusts the others. The key
 * material is made at test time with the JDK's keytool.
 */
@Timeout(120)
class TlsJoinTest {
    private static final String PASSWORD = "fedbpt-test-secret";
    private static final Duration FORM_WITHIN = Duration.ofSeconds(30);
    private static final Duration ROGUE_WINDOW = Duration.ofSeconds(8);

    private final List<ActorSystem<Void>> systems = new ArrayList<>();

    @TempDir
    Path dir;

    @AfterEach
    void terminateAll() throws Exception {
        systems.forEach(ActorSystem::terminate);
        for (ActorSystem<Void> system : systems) {
            system.getWhenTerminated().toCompletableFuture().get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void aMemberWithoutATrustedCertificateCannotJoin() {
        // The deployment's certificate: every trusted member holds it, the shared trust store trusts only it.
        Path trustedKeys = selfSigned("member");
        Path trustStore = dir.resolve("truststore.p12");
        trust(trustStore, "member");

        // The rogue: its own self-signed certificate; it trusts the deployment's and its own, so only the trusted
        // members' check of the certificate it presents can keep it out.
        Path rogueKeys = selfSigned("rogue");
        Path rogueTrust = dir.resolve("rogue-truststore.p12");
        trust(rogueTrust, "member");
        trust(rogueTrust, "rogue");

        Tls trusted = new Tls(trustedKeys, PASSWORD, trustStore, PASSWORD);
        Tls rogueTls = new Tls(rogueKeys, PASSWORD, rogueTrust, PASSWORD);
        int seed = Ports.free();

        ActorSystem<Void> server = start(seed, seed, Set.of(Role.SERVER, Role.INFERENCE), trusted);
        ActorSystem<Void> clients = start(0, seed, Set.of(Role.CLIENTS), trusted);
        assertEquals("tls-tcp", server.settings().config().getString("akka.remote.artery.transport"));
        awaitTrue(FORM_WITHIN, () -> upAddresses(server).containsAll(Set.of(address(server), address(clients)))
                        && upAddresses(clients).containsAll(Set.of(address(server), address(clients))),
                () -> "the trusted members did not see each other Up: server sees " + members(server)
                        + ", clients member sees " + members(clients));

        ActorSystem<Void> rogue = start(0, seed, Set.of(Role.CLIENTS), rogueTls);
        long until = System.nanoTime() + ROGUE_WINDOW.toNanos();
        while (System.nanoTime() < until) {
            for (ActorSystem<Void> member : List.of(server, clients)) {
                assertFalse(allAddresses(member).contains(address(rogue)),
                        "the rogue appeared among " + address(member) + "'s members: " + members(member));
            }
            Set<Address> seenByRogue = allAddresses(rogue);
            assertFalse(seenByRogue.contains(address(server)) || seenByRogue.contains(address(clients)),
                    "the rogue sees trusted members: " + members(rogue));
            MemberStatus rogueStatus = Cluster.get(rogue).selfMember().status();
            assertFalse(rogueStatus == MemberStatus.up() || rogueStatus == MemberStatus.weaklyUp(),
                    "the rogue became a member: " + rogueStatus);
            sleep(250);
        }

        // Positive control: a properly keyed member joins the same cluster meanwhile.
        ActorSystem<Void> third = start(0, seed, Set.of(Role.CLIENTS), trusted);
        awaitTrue(FORM_WITHIN, () -> upAddresses(server).contains(address(third))
                        && upAddresses(third).contains(address(server)),
                () -> "a trusted third member did not join: server sees " + members(server) + ", it sees "
                        + members(third));
        assertFalse(allAddresses(server).contains(address(rogue)), "the rogue got in after all: " + members(server));
    }

    private ActorSystem<Void> start(int port, int seedPort, Set<Role> roles, Tls tls) {
        NodeSettings settings = new NodeSettings("127.0.0.1", port, List.of("127.0.0.1:" + seedPort), roles,
                Duration.ofSeconds(5), Duration.ofSeconds(5), tls);
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), NodeSettings.SYSTEM_NAME,
                AkkaDefaults.over(settings.akkaConfig()));
        systems.add(system);
        return system;
    }

    private static Address address(ActorSystem<Void> system) {
        return Cluster.get(system).selfMember().address();
    }

    private static Iterable<Member> memberList(ActorSystem<Void> system) {
        return Cluster.get(system).state().getMembers();
    }

    private static Set<Address> allAddresses(ActorSystem<Void> system) {
        return StreamSupport.stream(memberList(system).spliterator(), false).map(Member::address)
                .collect(Collectors.toSet());
    }

    private static Set<Address> upAddresses(ActorSystem<Void> system) {
        return StreamSupport.stream(memberList(system).spliterator(), false)
                .filter(member -> member.status() == MemberStatus.up()).map(Member::address)
                .collect(Collectors.toSet());
    }

    private static String members(ActorSystem<Void> system) {
        return StreamSupport.stream(memberList(system).spliterator(), false)
                .map(member -> member.address() + "=" + member.status()).collect(Collectors.joining(", ", "[", "]"));
    }

    private static void awaitTrue(Duration within, BooleanSupplier condition,
                                  java.util.function.Supplier<String> failure) {
        long until = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                fail(failure.get());
            }
            sleep(200);
        }
    }

    /** A PKCS12 key store {@code alias}.p12 with a new self-signed certificate, exported to {@code alias}.crt. */
    private Path selfSigned(String alias) {
        Path keys = dir.resolve(alias + ".p12");
        // The same name for every certificate: what is checked is the certificate, not the name.
        keytool("-genkeypair", "-alias", alias, "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=fedbpt-member", "-storetype", "PKCS12", "-keystore", keys.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", alias, "-keystore", keys.toString(), "-storepass", PASSWORD,
                "-file", dir.resolve(alias + ".crt").toString());
        return keys;
    }

    /** Adds the certificate {@code alias}.crt to the trust store {@code store}. */
    private void trust(Path store, String alias) {
        keytool("-importcert", "-alias", alias, "-file", dir.resolve(alias + ".crt").toString(), "-storetype",
                "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD);
    }

    private static void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.add("-noprompt");
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("keytool did not finish: " + String.join(" ", command));
            }
            if (process.exitValue() != 0) {
                fail("keytool exited with " + process.exitValue() + ": " + String.join(" ", command) + "\n" + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run keytool", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
