package dev.fedbpt.actors;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.MethodTraits;
import dev.fedbpt.engine.method.Participation;
import dev.fedbpt.inference.ScoringModel;
import dev.fedbpt.persistence.JournalSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs (or resumes) one experiment in a run folder: stores its configuration, opens the journal, prepares the data,
 * starts the actors and waits until the server finishes or gives up.
 */
public final class ExperimentRunner {
    static final int MAX_BATCH_RETRIES = 3;

    /** {@code badInput}: the failure is the user's input (e.g. a damaged journal), not a crash of the run. */
    public record Outcome(RunOutputs outputs, String failure, boolean badInput) {
        public boolean succeeded() {
            return failure == null;
        }
    }

    private ExperimentRunner() {}

    public static Outcome run(ExperimentConfig config, Path runDirectory, ModelFactory models,
                              Consumer<String> progress) {
        return run(config, runDirectory, models, SeededFaults.from(config), progress);
    }

    public static Outcome run(ExperimentConfig config, Path runDirectory, ModelFactory models, FaultInjector faults,
                              Consumer<String> progress) {
        ModelBinding binding = new ModelBinding();
        FederatedMethod method = ConfiguredMethod.of(config, binding); // a bad setting is refused before the folder
        ExperimentData.checkFiles(config); // and so is a missing dataset file
        models.check(config); // and a device this machine lacks
        RunFolder.Claim claim = RunFolder.openForRun(runDirectory, config, progress);
        String experimentHash = claim.experimentHash();
        List<ScoringModel> sessions;
        ExperimentData data;
        try {
            sessions = models.loadWorkers(config);
            try {
                binding.bind(sessions.get(0));
                data = ExperimentData.prepare(config, sessions.get(0));
            } catch (RuntimeException e) {
                sessions.forEach(ScoringModel::close);
                throw e;
            }
        } catch (RuntimeException refused) {
            claim.release(); // a run refused before it computed anything leaves no folder to block the corrected one
            throw refused;
        }
        List<String> executionChanges = RunFolder.executionChanges(runDirectory, config);
        if (!executionChanges.isEmpty()) {
            progress.accept("continuing with other execution settings than " + RunFolder.CONFIG_FILE + "'s ("
                    + String.join(", ", executionChanges) + "); they do not change results");
        }
        ActorSystem<Void> system = null;
        try {
            ScoringModel first = sessions.get(0);
            progress.accept(describe(data, config));
            RunOutputs outputs = new RunOutputs(runDirectory, config, method, experimentHash, progress);
            List<RowScorer> scorers = sessions.stream().map(RowScorer::of).toList();
            Behavior<Void> guardian = guardian(config, method, experimentHash, data,
                    new Vocabulary(first.vocabularySize(), first.specialTokenIds()), scorers, faults, outputs);
            Config akka = AkkaDefaults.over(JournalSettings.forRunDirectory(runDirectory));
            system = ActorSystem.create(guardian, "fedbpt", akka);
            ActiveRuns.started(system);
            return awaitOutcome(system, outputs);
        } finally {
            sessions.forEach(ScoringModel::close);
            if (system != null) {
                ActiveRuns.ended(system);
            }
        }
    }

    /** Waits until the server's actor system ends and says how the run went. */
    public static Outcome awaitOutcome(ActorSystem<?> system, RunOutputs outputs) {
        awaitTermination(system);
        String failure = outputs.failure();
        if (failure == null && outputs.finalState() == null) {
            failure = ActiveRuns.stopping()
                    ? "by a signal; the journal keeps what was done, and `fedbpt resume` (or the same command "
                            + "again) continues from there"
                    : "the actor system stopped before the experiment finished";
        }
        return new Outcome(outputs, failure, outputs.refused());
    }

    /** The progress line that opens a run. */
    public static String describe(ExperimentData data, ExperimentConfig config) {
        ExperimentConfig.Data d = config.data();
        String capped = d.testLimit() == 0 || data.testSet().labels().length < d.testLimit() ? ""
                : d.testSampling() == ExperimentConfig.TestSampling.FIRST ? " (the file's first " + d.testLimit() + ")"
                : " (data.test-limit: a sample stratified by class, drawn by the seed)";
        return String.format("%s, %s, %d %s examples%s, method %s", Counted.of(data.clients().size(), "client"),
                Counted.of(data.clients().stream().mapToInt(c -> c.labels().length).sum(), "training example"),
                data.testSet().labels().length, d.evaluatedOn(), capped, config.experiment().method());
    }

    public static void awaitTermination(ActorSystem<?> system) {
        try {
            system.getWhenTerminated().toCompletableFuture().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            system.terminate();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("actor system failed", e.getCause());
        }
    }

    private static Behavior<Void> guardian(ExperimentConfig config, FederatedMethod method, String experimentHash,
                                           ExperimentData data, Vocabulary vocabulary, List<RowScorer> scorers,
                                           FaultInjector faults, RunOutputs outputs) {
        return Behaviors.setup(context -> {
            ActorRef<InferencePool.Request> pool = context.spawn(
                    InferencePool.create(poolSettings(config), scorers, faults), "pool").narrow();
            List<ActorRef<ClientActor.Command>> clients = new ArrayList<>();
            for (int id = 0; id < data.clients().size(); id++) {
                clients.add(context.spawn(ClientActor.create(new ClientActor.Setup(id, data.clients().get(id),
                        vocabulary, method, config.experiment().seed(), pool, faults, data.clientTest(id),
                        data.participation().isParticipant(id), data.heldApart(id))), "client-" + id));
            }
            ActorRef<ServerActor.Command> server = context.spawn(ServerActor.create(
                    serverSettings(config, experimentHash, data.participation()),
                    method, ClientDirectory.local(clients), pool, data.testSet(), faults, outputs), "server");
            context.watch(server);
            return Behaviors.receive(Void.class)
                    .onSignal(Terminated.class, terminated -> Behaviors.stopped())
                    .build();
        });
    }

    public static InferencePool.Settings poolSettings(ExperimentConfig config) {
        return new InferencePool.Settings(config.pool().maxBatchRows(), config.pool().maxBatchTokens(),
                config.pool().maxWait(), config.pool().queueLimit(), MAX_BATCH_RETRIES);
    }

    /**
     * Baselines that only evaluate (zero-shot, in-context learning) run no rounds; a personalised method runs its
     * personalisation round after the federated ones.
     */
    public static ServerActor.Settings serverSettings(ExperimentConfig config, String experimentHash,
                                                      Participation participation) {
        MethodTraits traits = config.experiment().traits();
        int rounds = traits.serverRounds(config.experiment().rounds());
        return new ServerActor.Settings(experimentHash, config.experiment().seed(), rounds,
                config.experiment().evalEvery(), participation, config.federation().sampleFraction(),
                config.federation().quorum(), config.federation().roundDeadline(), config.federation().maxAttempts(),
                config.persistence().snapshotEvery());
    }
}
