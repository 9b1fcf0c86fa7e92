package dev.fedbpt.actors.cluster;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorRefResolver;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.ClusterEvent;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Subscribe;
import dev.fedbpt.actors.FaultInjector;
import dev.fedbpt.actors.ServerActor;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.persistence.RoundIncidents;

/**
 * The fault injector of a member without the server role: the server drains only its own member's injector when
 * it closes a round, so this one sends what it counts to the server itself, from the injecting thread, as soon as a
 * fault is injected (faults injected at the same moment on several threads may share a message).
 *
 * <p>Sending at once, rather than on a timer, is what keeps the counts in their round: a client's answer to the
 * round leaves this member after the count of its fault (drop, crash, delay), to the same actor over the same
 * connection, so the server has counted it before that answer can close the round, exactly as in one JVM. A fault
 * injected on an inference member races its score's way back through the clients member; should it lose, it counts
 * in the round that closes next, and after the last round it is lost (as the faults of the final evaluation are in
 * one JVM). Until this member has seen the server's member up, counts wait in the local injector.
 */
final class FaultRelay implements FaultInjector {
    private final FaultInjector local;
    private volatile ActorRef<ServerActor.Command> server;

    FaultRelay(FaultInjector local) {
        this.local = local;
    }

    @Override
    public ClientFault clientFault(int round, int attempt, int clientId) {
        ClientFault fault = local.clientFault(round, attempt, clientId);
        send(); // after every decision: draining finds whatever was counted, even a delay drawn as zero
        return fault;
    }

    @Override
    public boolean workerCrashes(int worker, long batchId) {
        boolean crashes = local.workerCrashes(worker, batchId);
        if (crashes) {
            send();
        }
        return crashes;
    }

    @Override
    public Float corruptedScore(ScoreRow row) {
        Float corrupted = local.corruptedScore(row);
        if (corrupted != null) {
            send();
        }
        return corrupted;
    }

    /** Nothing: every count goes to the server. */
    @Override
    public RoundIncidents drainCounts() {
        return RoundIncidents.NONE;
    }

    private void send() {
        ActorRef<ServerActor.Command> to = server;
        if (to == null) {
            return;
        }
        RoundIncidents counts = local.drainCounts();
        if (counts.faultsInjected() > 0) {
            to.tell(new ServerActor.FaultsInjected(counts));
        }
    }

    /**
     * Follows the cluster's members to learn where the server is: at a fixed path on the member with the server
     * role, known as soon as that member is up (the receptionist would take seconds to spread a registration, and
     * a short run can be over by then).
     */
    Behavior<ClusterEvent.MemberUp> serverFinder() {
        return Behaviors.setup(context -> {
            Cluster.get(context.getSystem()).subscriptions().tell(Subscribe.create(context.getSelf(),
                    ClusterEvent.MemberUp.class));
            ActorRefResolver resolver = ActorRefResolver.get(context.getSystem());
            return Behaviors.receive(ClusterEvent.MemberUp.class)
                    .onMessage(ClusterEvent.MemberUp.class, up -> onMemberUp(resolver, up))
                    .build();
        });
    }

    private Behavior<ClusterEvent.MemberUp> onMemberUp(ActorRefResolver resolver, ClusterEvent.MemberUp up) {
        if (up.member().hasRole(NodeSettings.Role.SERVER.id())) {
            server = resolver.resolveActorRef(up.member().address() + ClusterNode.SERVER_PATH);
            send(); // what was injected before
        }
        return Behaviors.same();
    }
}
