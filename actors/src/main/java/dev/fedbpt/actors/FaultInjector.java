package dev.fedbpt.actors;

/**
 * Faults injected on purpose. Decisions must be deterministic functions of their coordinates so that an
 * experiment with faults is as reproducible as one without.
 */
public interface FaultInjector {
    FaultInjector NONE = new FaultInjector() {};

    /** Whether client {@code clientId} throws during its local search of {@code round}. */
    default boolean clientCrashes(int round, int clientId) {
        return false;
    }

    /** Whether worker {@code worker} throws on the batch with this id (a retried batch gets a new id). */
    default boolean workerCrashes(int worker, long batchId) {
        return false;
    }

    /** Thrown where a fault is injected, so logs tell injected faults from real ones. */
    final class InjectedFault extends RuntimeException {
        public InjectedFault(String message) {
            super(message);
        }
    }
}
