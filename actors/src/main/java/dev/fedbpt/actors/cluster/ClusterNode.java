package dev.fedbpt.actors.cluster;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.receptionist.Receptionist;
import akka.cluster.ClusterEvent;
import akka.cluster.sharding.typed.javadsl.ClusterSharding;
import akka.cluster.sharding.typed.javadsl.Entity;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.SelfUp;
import akka.cluster.typed.Subscribe;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.actors.ActiveRuns;
import dev.fedbpt.actors.AkkaDefaults;
import dev.fedbpt.actors.ClientActor;
import dev.fedbpt.actors.ConfiguredMethod;
import dev.fedbpt.actors.Counted;
import dev.fedbpt.actors.ExperimentData;
import dev.fedbpt.actors.ExperimentRunner;
import dev.fedbpt.actors.FaultInjector;
import dev.fedbpt.actors.InferencePool;
import dev.fedbpt.actors.ModelBinding;
import dev.fedbpt.actors.ModelFactory;
import dev.fedbpt.actors.PoolLink;
import dev.fedbpt.actors.RowScorer;
import dev.fedbpt.actors.RunFolder;
import dev.fedbpt.actors.RunOutputs;
import dev.fedbpt.actors.ServerActor;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.inference.ModelTokenizer;
import dev.fedbpt.inference.ScoringModel;
import dev.fedbpt.persistence.JournalSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One member of a fedbpt cluster, doing what its roles say: {@code server} (the event-sourced server and its
 * journal), {@code clients} (hosts shards of client entities), {@code inference} (the pool and its workers, with
 * the model). Every member derives the same data from the same experiment configuration, so nothing but round
 * messages, scores and results travels between them. Members other than the server's stop when the server leaves.
 */
public final class ClusterNode {

    /** The server's name under its member's guardian. */
    static final String SERVER_NAME = "server";
    /** Where other members reach the server on its member: fault counts, large uploads, wire checks. */
    public static final String SERVER_PATH = "/user/" + SERVER_NAME;
    /** The least a member waits for the first inference pool to be seen (see {@link PoolLink}). */
    static final java.time.Duration FIRST_POOL_WAIT = java.time.Duration.ofMinutes(1);

    private sealed interface Event {}

    private record Up() implements Event {}

    /** A member leaves, left or was removed. */
    private record MemberGoing(akka.cluster.Member member) implements Event {}

    private record InferenceGone(String reason) implements Event {}

    private final ActorSystem<Event> system;
    private final RunOutputs outputs;
    /**
     * Completes once the member's actor system has terminated and its models (the inference member's sessions, or
     * the tokenizer of a member that scores nothing) are closed: whether or not anyone awaits the member (a test's
     * crashed member is not), so that it never stays among the {@link ActiveRuns} a stop signal waits for.
     */
    private final CompletableFuture<Void> modelsClosed;

    private ClusterNode(ActorSystem<Event> system, RunOutputs outputs, List<ModelTokenizer> opened) {
        this.system = system;
        this.outputs = outputs;
        this.modelsClosed = system.getWhenTerminated().toCompletableFuture().handle((done, failure) -> {
            try {
                opened.forEach(ModelTokenizer::close);
            } finally {
                ActiveRuns.ended(system);
            }
            return null;
        });
    }

    /**
     * Starts a member; with the server role, {@code runDirectory} is claimed as in a single-JVM run (its journal
     * and outputs live there), otherwise it is ignored.
     */
    public static ClusterNode start(NodeSettings node, ExperimentConfig config, Path runDirectory,
                                    ModelFactory models, FaultInjector faults, Consumer<String> progress) {
        return start(node, config, runDirectory, models, faults, progress, ConfigFactory.empty());
    }

    /** As above, with Akka settings of the caller's layered on top (tuning, or a test's way to crash abruptly). */
    public static ClusterNode start(NodeSettings node, ExperimentConfig config, Path runDirectory,
                                    ModelFactory models, FaultInjector faults, Consumer<String> progress,
                                    Config akkaOverrides) {
        ExperimentData.checkFiles(config); // a missing dataset file is refused before the run folder is claimed
        return start(node, config, runDirectory, models, faults, progress, akkaOverrides,
                model -> Population.of(ExperimentData.prepare(config, model)));
    }

    /**
     * As above, with the population built by {@code population} from the member's tokenizer instead of from the
     * configured dataset: benchmarks use synthetic clients.
     */
    public static ClusterNode start(NodeSettings node, ExperimentConfig config, Path runDirectory,
                                    ModelFactory models, FaultInjector faults, Consumer<String> progress,
                                    Config akkaOverrides, Function<ModelTokenizer, Population> population) {
        // One per member, built before the run folder is claimed (a bad method setting is refused first): its server,
        // its clients and its outputs share it, as they do in one JVM.
        ModelBinding binding = new ModelBinding();
        FederatedMethod method = ConfiguredMethod.of(config, binding);
        String experimentHash = null;
        if (node.has(NodeSettings.Role.INFERENCE)) {
            models.check(config); // a device this member lacks, before a server beside it claims the folder
        }
        RunFolder.Claim claim = null;
        if (node.has(NodeSettings.Role.SERVER)) {
            claim = RunFolder.openForRun(runDirectory, config, progress);
            experimentHash = claim.experimentHash();
        }
        List<ScoringModel> sessions = List.of();
        List<ModelTokenizer> opened = new ArrayList<>();
        try {
            ModelTokenizer tokens;
            if (node.has(NodeSettings.Role.INFERENCE)) {
                sessions = models.loadWorkers(config);
                opened.addAll(sessions);
                tokens = sessions.get(0);
            } else {
                // Such a member only tokenises its data, so it opens no session (nor the memory and time one takes).
                tokens = models.tokenizer(config);
                opened.add(tokens);
            }
            binding.bind(tokens);
            Population data = population.apply(tokens);
            progress.accept(String.format("%s, %d %s examples, method %s; cluster member %s:%d as %s",
                    Counted.of(data.size(), "client"), data.testSet().labels().length, config.data().evaluatedOn(),
                    config.experiment().method(), node.host(),
                    node.port(), node.roles().stream().map(NodeSettings.Role::id).sorted().toList()));
            RunOutputs outputs = node.has(NodeSettings.Role.SERVER)
                    ? new RunOutputs(runDirectory, config, method, experimentHash, progress) : null;
            List<RowScorer> scorers = sessions.stream().map(RowScorer::of).toList();
            // The server drains its own member's injector; faults of the others reach it only if sent there, and
            // without faults configured nothing is added.
            FaultInjector memberFaults = node.has(NodeSettings.Role.SERVER) || faults == FaultInjector.NONE ? faults
                    : new FaultRelay(faults);
            Members members = new Members(node, config, method, experimentHash, data,
                    new Vocabulary(tokens.vocabularySize(), tokens.specialTokenIds()), scorers, memberFaults, outputs);
            Config akka = akkaOverrides.withFallback(node.akkaConfig());
            if (node.has(NodeSettings.Role.SERVER)) {
                akka = akka.withFallback(JournalSettings.forRunDirectory(runDirectory));
            }
            ActorSystem<Event> system = ActorSystem.create(members.guardian(), NodeSettings.SYSTEM_NAME,
                    AkkaDefaults.over(akka));
            ActiveRuns.started(system);
            return new ClusterNode(system, outputs, opened);
        } catch (RuntimeException e) {
            opened.forEach(ModelTokenizer::close);
            if (claim != null) claim.release(); // refused before computing: a fresh folder is left as it was
            throw e;
        }
    }

    /** The server's member: the run's outcome once it ends. Other members: null once this member stops. */
    public ExperimentRunner.Outcome awaitOutcome() {
        try {
            if (outputs == null) {
                ExperimentRunner.awaitTermination(system);
                return null;
            }
            return ExperimentRunner.awaitOutcome(system, outputs);
        } finally {
            modelsClosed.join();
        }
    }

    public ActorSystem<?> system() {
        return system;
    }

    /** What this member sent to other members so far. */
    public WireTraffic traffic() {
        return WireTraffic.ID.get(akka.actor.typed.javadsl.Adapter.toClassic(system));
    }

    /** The actors of one member; built in the guardian's setup. */
    private record Members(NodeSettings node, ExperimentConfig config, FederatedMethod method, String experimentHash,
                           Population data,
                           Vocabulary vocabulary, List<RowScorer> scorers, FaultInjector faults,
                           RunOutputs outputs) {

        Behavior<Event> guardian() {
            return Behaviors.setup(context -> {
                ActorRef<RoundStates.Command> states = context.spawn(RoundStates.create(method), RoundStates.NAME);
                if (faults instanceof FaultRelay relay) {
                    context.spawn(relay.serverFinder(), "fault-relay");
                }
                if (node.has(NodeSettings.Role.INFERENCE)) {
                    ActorRef<InferencePool.Command> pool = context.spawn(InferencePool.create(
                            ExperimentRunner.poolSettings(config), scorers, faults), "pool");
                    context.getSystem().receptionist().tell(Receptionist.register(PoolLink.POOL_KEY, pool));
                }
                // The server's member decides when the inference member has been gone too long; the others wait
                // twice as long, so the run stops with that reason rather than with their clients' failures.
                java.time.Duration wait = node.has(NodeSettings.Role.SERVER) ? node.inferenceWait()
                        : node.inferenceWait().multipliedBy(2);
                // Rounds start once the inference member is up, but its pool's registration arrives by gossip
                // some seconds later (more on a loaded machine): a short --inference-wait must not end the run then.
                java.time.Duration firstWait = wait.compareTo(FIRST_POOL_WAIT) > 0 ? wait : FIRST_POOL_WAIT;
                ActorRef<PoolLink.Command> link = context.spawn(PoolLink.create(firstWait, wait,
                        reason -> context.getSelf().tell(new InferenceGone(reason))), "pool-link");
                ClusterSharding sharding = ClusterSharding.get(context.getSystem());
                sharding.init(Entity.of(ClientEntity.TYPE_KEY, clients(context, states, link))
                        .withRole(NodeSettings.Role.CLIENTS.id()));
                Cluster cluster = Cluster.get(context.getSystem());
                cluster.subscriptions().tell(Subscribe.create(context.messageAdapter(SelfUp.class, up -> new Up()),
                        SelfUp.class));
                cluster.subscriptions().tell(Subscribe.create(context.messageAdapter(
                        ClusterEvent.MemberEvent.class, event -> new MemberGoing(event.member())),
                        ClusterEvent.MemberEvent.class));
                return waiting(context, sharding, states, link);
            });
        }

        private akka.japi.function.Function<akka.cluster.sharding.typed.javadsl.EntityContext<ClientEntity.Command>,
                Behavior<ClientEntity.Command>> clients(ActorContext<Event> context,
                                                        ActorRef<RoundStates.Command> states,
                                                        ActorRef<PoolLink.Command> link) {
            String self = Cluster.get(context.getSystem()).selfMember().address().toString();
            return entity -> {
                int id = Integer.parseInt(entity.getEntityId());
                ClientActor.Setup setup = new ClientActor.Setup(id, data.clientData().apply(id), vocabulary, method,
                        config.experiment().seed(), link.narrow(), faults, data.clientTests().apply(id),
                        data.participation().isParticipant(id), data.clientHeldApart().apply(id));
                return ClientEntity.create(id, setup, self, states, entity.getShard());
            };
        }

        /** Until this member is up (the cluster has a clients and an inference member): nothing to do yet. */
        private Behavior<Event> waiting(ActorContext<Event> context, ClusterSharding sharding,
                                        ActorRef<RoundStates.Command> states, ActorRef<PoolLink.Command> link) {
            return Behaviors.receive(Event.class)
                    .onMessage(Up.class, up -> {
                        if (!node.has(NodeSettings.Role.SERVER)) {
                            return following();
                        }
                        ActorRef<ServerActor.Command> server = context.spawn(ServerActor.create(
                                ExperimentRunner.serverSettings(config, experimentHash, data.participation()),
                                method, new ShardedClients(sharding, states),
                                link.narrow(), data.testSet(), faults, outputs), SERVER_NAME);
                        context.watch(server);
                        context.spawn(MembershipWatcher.create(server), "membership");
                        return serving(server);
                    })
                    .onMessage(MemberGoing.class, this::stopIfServer)
                    .onMessage(InferenceGone.class, gone -> Behaviors.same())
                    .build();
        }

        private Behavior<Event> serving(ActorRef<ServerActor.Command> server) {
            return Behaviors.receive(Event.class)
                    .onMessage(InferenceGone.class, gone -> {
                        server.tell(new ServerActor.GiveUp(gone.reason()));
                        return Behaviors.same();
                    })
                    .onSignal(Terminated.class, terminated -> Behaviors.stopped())
                    .build();
        }

        private Behavior<Event> following() {
            return Behaviors.receive(Event.class)
                    .onMessage(MemberGoing.class, this::stopIfServer)
                    .onMessage(InferenceGone.class, gone -> Behaviors.same())
                    .build();
        }

        /** The server's member is leaving or gone (finished, or lost): this member's work is over. */
        private Behavior<Event> stopIfServer(MemberGoing going) {
            akka.cluster.MemberStatus status = going.member().status();
            boolean leaving = status == akka.cluster.MemberStatus.leaving()
                    || status == akka.cluster.MemberStatus.exiting() || status == akka.cluster.MemberStatus.removed()
                    || status == akka.cluster.MemberStatus.down();
            return leaving && going.member().hasRole(NodeSettings.Role.SERVER.id()) ? Behaviors.stopped()
                    : Behaviors.same();
        }
    }
}
