package dev.fedbpt.engine.fedbpt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Server-side aggregation of one round's client results. Implementations are pure and order-independent. */
public interface ServerStrategy {
    GlobalState aggregate(GlobalState current, List<LocalResult> results);

    String name();

    /** The global state before the first round: mean 0, step size sigma0, C = I, zero paths. */
    default GlobalState initial(int dimension, double sigma0) {
        return new GlobalState(0, dev.fedbpt.engine.cmaes.CmaesState.initial(new double[dimension], sigma0));
    }

    /**
     * Computes ahead what {@link #aggregate} will need for {@code current} (FedBPT: the O(d^3) decomposition of the
     * global covariance), so that it runs while the clients search rather than after their last answer. May be
     * called from another thread; {@code aggregate} gives the same bytes with or without it.
     */
    default void prepare(GlobalState current) {}

    /** Whether clients must upload their whole local CMA-ES state ({@link LocalResult#localState()}). */
    default boolean needsLocalStates() {
        return true;
    }

    /**
     * Validates results for {@code current} and returns them sorted by (loss, clientId), non-finite losses last,
     * so the arrival order never matters.
     */
    static List<LocalResult> checkedAndSorted(GlobalState current, List<LocalResult> results) {
        if (current == null || results == null || results.isEmpty()) {
            throw new IllegalArgumentException("need a current state and at least one client result");
        }
        int d = current.cmaes().dimension();
        List<LocalResult> sorted = new ArrayList<>(results);
        java.util.Set<Integer> ids = new java.util.HashSet<>();
        for (LocalResult r : sorted) {
            if (r.round() != current.round()) {
                throw new IllegalArgumentException("result of client " + r.clientId() + " is for round " + r.round()
                        + " but the server is in round " + current.round());
            }
            if (r.mean().length != d) {
                throw new IllegalArgumentException("client " + r.clientId() + " mean has dimension "
                        + r.mean().length + ", expected " + d);
            }
            if (!ids.add(r.clientId())) {
                throw new IllegalArgumentException("duplicate result for client " + r.clientId());
            }
        }
        sorted.sort(Comparator.comparingDouble((LocalResult r) -> Double.isFinite(r.loss())
                ? r.loss() : Double.POSITIVE_INFINITY).thenComparingInt(LocalResult::clientId));
        return sorted;
    }
}
