package dev.fedbpt.actors;

import akka.actor.typed.Behavior;
import akka.actor.typed.SupervisorStrategy;
import akka.actor.typed.javadsl.Behaviors;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.persistence.RoundIncidents;
import java.time.Duration;

/**
 * Faults injected on purpose. Decisions must be deterministic functions of their coordinates (never of timing)
 * so that an experiment with faults is as reproducible as one without; {@link SeededFaults} draws them from the
 * experiment seed and the configured rates.
 */
public interface FaultInjector {
    FaultInjector NONE = new FaultInjector() {};

    /** What sampled client {@code clientId} does in round {@code round}, attempt {@code attempt} (both 1-based). */
    default ClientFault clientFault(int round, int attempt, int clientId) {
        return ClientFault.NONE;
    }

    /**
     * Whether worker {@code worker} throws on the batch with this id. Only asked for a batch's first try (a retried
     * batch gets a new id and is never hit), so an injected worker crash costs time and never a result.
     */
    default boolean workerCrashes(int worker, long batchId) {
        return false;
    }

    /** The value a worker returns instead of the model's scores for this row (NaN or infinity), or null. */
    default Float corruptedScore(ScoreRow row) {
        return null;
    }

    /** Faults injected since the previous call (only the fault fields are set), for the round's metrics. */
    default RoundIncidents drainCounts() {
        return RoundIncidents.NONE;
    }

    /**
     * A client's fault in one round attempt.
     *
     * @param drops            never answers
     * @param crashAtIteration throws when its local search reaches this iteration (0-based), or -1
     * @param delay            holds its answer back this long (zero: none)
     */
    record ClientFault(boolean drops, int crashAtIteration, Duration delay) {
        public static final ClientFault NONE = new ClientFault(false, -1, Duration.ZERO);
    }

    /** Thrown where a fault is injected, so logs tell injected faults from real ones. */
    final class InjectedFault extends RuntimeException {
        public InjectedFault(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Restarts {@code behavior} on any exception, but without the supervisor's stack trace for an injected one
     * (the injection site logs a single warning line): a chaos run injects hundreds.
     */
    static <T> Behavior<T> restartOnFailure(Behavior<T> behavior) {
        Behavior<T> quiet = Behaviors.supervise(behavior).onFailure(InjectedFault.class,
                SupervisorStrategy.restart().withLoggingEnabled(false));
        return Behaviors.supervise(quiet).onFailure(Exception.class, SupervisorStrategy.restart());
    }
}
