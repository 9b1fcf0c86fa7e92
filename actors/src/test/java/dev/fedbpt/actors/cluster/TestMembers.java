package dev.fedbpt.actors.cluster;

import akka.actor.Address;
import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.cluster.ClusterEvent;
import akka.cluster.Member;
import akka.cluster.MemberStatus;
import akka.cluster.UniqueAddress;
import akka.util.Version;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.fedbpt.actors.AkkaDefaults;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Cluster membership for actor tests: members and their events made up directly (so an actor that follows the
 * cluster can be fed any member without starting one), and test kits whose system is a cluster member on 127.0.0.1
 * that has joined nothing yet.
 */
final class TestMembers {
    private TestMembers() {}

    /** A member elsewhere: {@code host}:2552 of the fedbpt system. */
    static Address address(String host) {
        return new Address("akka", NodeSettings.SYSTEM_NAME, host, 2552);
    }

    /**
     * A member with {@code status} and {@code roles}. Akka's Scala API keeps Member's constructor to itself; from
     * Java it is public, which is what a test that makes up cluster events needs.
     */
    static Member member(Address address, MemberStatus status, String... roles) {
        Set<String> all = new LinkedHashSet<>(List.of(roles));
        all.add("dc-default"); // every member has a data centre (Member.dataCenter reads this role)
        scala.collection.immutable.Set<String> scalaRoles = scala.jdk.javaapi.CollectionConverters.asScala(all)
                .toSet();
        return new Member(new UniqueAddress(address, 1L), 1, status, scalaRoles, Version.Zero());
    }

    static ClusterEvent.MemberUp up(Address address, String... roles) {
        return new ClusterEvent.MemberUp(member(address, MemberStatus.up(), roles));
    }

    /** Removed after it left (Exiting); a downed member is removed from Down, which the actors do not tell apart. */
    static ClusterEvent.MemberRemoved removed(Address address, String... roles) {
        return new ClusterEvent.MemberRemoved(member(address, MemberStatus.removed(), roles), MemberStatus.exiting());
    }

    /** A test kit whose system is a cluster member with {@code roles}, on a free port of 127.0.0.1, not joined. */
    static ActorTestKit clusterKit(String... roles) {
        Config config = ConfigFactory.parseString("""
                akka.actor.provider = cluster
                akka.remote.artery.canonical.hostname = "127.0.0.1"
                akka.remote.artery.canonical.port = 0
                akka.cluster.jmx.enabled = off
                akka.cluster.log-info = off
                """).withValue("akka.cluster.roles", ConfigValueFactory.fromIterable(List.of(roles)));
        return ActorTestKit.create(NodeSettings.SYSTEM_NAME, AkkaDefaults.over(config));
    }
}
