package dev.fedbpt.engine.method;

import java.util.List;
import java.util.Map;

/**
 * A federated prompt-tuning method: the one seam through which the framework (actors, journal, reports) runs it,
 * in the spirit of Flower's Strategy (initialize, configure, aggregate, evaluate) with a client procedure in the
 * spirit of pycma's ask/tell. Implementations are deterministic: the same inputs give the same bytes, whatever
 * thread or machine calls them, so a journal replayed through them rebuilds the exact run. They are not free of
 * state: one may keep work it will be asked for again (FedBPT keeps the round's replayed client searches and the
 * decomposition {@link #prepare} computed, by the identity of the state the server holds), which saves time and
 * never changes a byte. A method is one package and one entry in {@link Methods}.
 *
 * <p>A round, with t the rounds completed before it: the server holds {@code global}; every sampled client gets
 * {@code configure(global, t)} and runs {@code client(downlink, task)} to its upload; the server's next state is
 * {@code aggregate(global, uploads)}; evaluation scores {@code evaluationPrompt(next)}; {@code metrics(next)} is what
 * the round reports besides the framework's own numbers.
 */
public interface FederatedMethod {

    /** The registry name (e.g. "fedbpt"), as written in configurations and results. */
    String name();

    /** What result.json records of how this run was set up, beyond the framework's fields (e.g. FedBPT's reading). */
    default Map<String, Object> resultFields() {
        return Map.of();
    }

    /** {@link #resultFields()} with what the run's final state adds (e.g. layers a method chose as it ran). */
    default Map<String, Object> resultFields(MethodState global) {
        return resultFields();
    }

    /** The global state before the first round. */
    MethodState initialize();

    /** What every client sampled in round {@code round} (0-based) receives. */
    Downlink configure(MethodState global, int round);

    /** A client's local procedure for one round, started from its downlink. */
    ClientProcedure client(Downlink downlink, ClientTask task);

    /**
     * The next global state from the round's uploads, which may arrive in any order (an implementation sorts them
     * itself) and all answer {@code global}'s round.
     */
    MethodState aggregate(MethodState global, List<Upload> uploads);

    /**
     * Computes ahead, possibly on another thread while the clients work, what {@link #aggregate} will need for
     * {@code global}; aggregate gives the same bytes with or without it.
     */
    default void prepare(MethodState global) {}

    /** Why the server must refuse {@code upload} for {@code global} (wrong shape, non-finite numbers), or null. */
    String screen(MethodState global, Upload upload);

    /**
     * The prompt the test set is scored with after a round, or null for none (the model alone, as before the first
     * round; e.g. while a method is still choosing its prompt's vocabulary).
     */
    Prompt evaluationPrompt(MethodState global);

    /** What the method reports of a state, by name, in a fixed order (FedBPT: its step size "sigma"). */
    Map<String, Double> metrics(MethodState global);

    /**
     * What a client that holds round {@code round - 1}'s downlink needs to rebuild round {@code round}'s, or null
     * when the method has nothing smaller than the downlink (such holders then get the whole downlink, as every
     * client without it does). FedBPT and FedAvg-BBT, whose downlink is their whole state with its d x d covariance,
     * send the previous round's uploads, from which the holder replays the server's aggregate; DLS-EC sends its
     * compressed update. The framework wraps it in a {@link RoundUpdate} with the digest of the downlink it rebuilds.
     *
     * @param global          the state round {@code round} (0-based) starts from
     * @param previousUploads the previous round's accepted uploads in client id order; null before the first round
     */
    default Payload downlinkUpdate(MethodState global, int round, List<Upload> previousUploads) {
        return null;
    }

    /**
     * Round {@code round}'s downlink rebuilt from {@code held}, round {@code round - 1}'s, and the
     * {@link #downlinkUpdate} that leads from it: bit for bit what the server's {@code configure} gives.
     *
     * @throws IllegalArgumentException when {@code update} does not follow from {@code held}
     */
    default Downlink replay(Downlink held, Payload update) {
        throw new IllegalArgumentException(name() + " sends no downlink updates");
    }
}
