package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.AskTell;
import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.Payload;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.Upload;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * FedBPT and the methods built from the same parts (FedAvg-BBT, centralised BBT) behind the method seam: the global
 * state is the server's CMA-ES ({@link GlobalState}), every sampled client receives it whole and runs
 * {@link ClientSearch}, the {@link ServerStrategy} aggregates, and evaluation scores the global mean.
 *
 * <p>The downlink is the whole state (d x d covariance included, about 2 MB at d = 500), so a holder of one round's
 * downlink rebuilds the next from the round's uploads ({@link #replay}, the framework's {@code RoundUpdate}). Where
 * the strategy averages the clients' local states (FedAvg-BBT), clients upload the fitness values they told their
 * search and the server replays it, so neither direction carries a covariance.
 *
 * <p>The clients of one JVM start every round from the same downlink instance; the first decomposes its covariance
 * (O(d^3), about 0.45 s at d = 500) and the others copy the result instead of repeating it, bit-identical to each
 * client building its own. Only the latest round's start is kept.
 */
public final class FedBptMethod implements FederatedMethod {
    private final String name;
    private final ServerStrategy strategy;
    private final ClientSearchConfig search;
    private final int dimension;
    private final double sigma0;
    private final boolean runsRounds;
    private final long seed;
    private final Map<String, Object> resultFields;
    private GlobalState startFor;
    private AskTell start;
    private final Map<LocalResult, CmaesState> replays = new IdentityHashMap<>(); // of replaysFor's round
    private GlobalState replaysFor;

    public FedBptMethod(String name, ServerStrategy strategy, ClientSearchConfig search, int dimension,
                        double sigma0, boolean runsRounds, long seed) {
        this(name, strategy, search, dimension, sigma0, runsRounds, seed, Map.of());
    }

    /**
     * @param seed         the experiment seed, from which the server replays the clients' searches where the
     *                     strategy needs their local states ({@link LocalResult#told()})
     * @param resultFields what result.json records of the reading this method runs ({@link #resultFields()})
     */
    public FedBptMethod(String name, ServerStrategy strategy, ClientSearchConfig search, int dimension,
                        double sigma0, boolean runsRounds, long seed, Map<String, Object> resultFields) {
        if (name == null || strategy == null || search == null) {
            throw new IllegalArgumentException("name, strategy and search must not be null");
        }
        if (dimension < 1 || !(sigma0 > 0) || !Double.isFinite(sigma0)) {
            throw new IllegalArgumentException("need dimension >= 1 and a finite sigma0 > 0");
        }
        this.name = name;
        this.strategy = strategy;
        this.search = search;
        this.dimension = dimension;
        this.sigma0 = sigma0;
        this.runsRounds = runsRounds;
        this.seed = seed;
        this.resultFields = Collections.unmodifiableMap(new LinkedHashMap<>(resultFields));
    }

    @Override
    public Map<String, Object> resultFields() {
        return resultFields;
    }

    @Override
    public String name() {
        return name;
    }

    public ServerStrategy strategy() {
        return strategy;
    }

    public ClientSearchConfig search() {
        return search;
    }

    public int dimension() {
        return dimension;
    }

    @Override
    public GlobalState initialize() {
        return strategy.initial(dimension, sigma0);
    }

    @Override
    public Downlink configure(MethodState global, int round) {
        GlobalState state = (GlobalState) global;
        if (state.round() != round) {
            throw new IllegalArgumentException("the global state is after round " + state.round()
                    + ", asked to configure round " + round);
        }
        return state;
    }

    @Override
    public ClientSearch client(Downlink downlink, ClientTask task) {
        GlobalState global = (GlobalState) downlink;
        return new ClientSearch(startOf(global), search, task.data(), task.vocabulary(), task.seed(), global.round(),
                task.clientId());
    }

    private synchronized AskTell startOf(GlobalState global) {
        if (global != startFor) { // every client of a round in this JVM gets the same instance
            start = ClientSearch.startingPoint(global.cmaes(), search);
            startFor = global;
        }
        return start;
    }

    @Override
    public GlobalState aggregate(MethodState global, List<Upload> uploads) {
        GlobalState state = (GlobalState) global;
        GlobalState next = strategy.aggregate(state, uploads.stream().map(u -> withLocalState(state, (LocalResult) u))
                .toList());
        synchronized (replays) { // the round is over: its clients' states are not needed again
            if (replaysFor == state) {
                replays.clear();
            }
        }
        return next;
    }

    /** The result with its local state, replayed from its told fitness values when the strategy needs it. */
    private LocalResult withLocalState(GlobalState global, LocalResult result) {
        if (!strategy.needsLocalStates() || result.localState() != null || result.told() == null) {
            return result;
        }
        return result.withLocalState(replayed(global, result));
    }

    /**
     * The client's final local state, its search replayed from its told fitness values. The server screens an upload
     * and later aggregates the same instance, so the latest round's replays are kept by upload identity until the
     * next round (a replay is bit for bit the same computation again; a journal's replay, with new instances, simply
     * computes it). They are as large as the states clients uploaded before they sent fitness values instead.
     */
    private CmaesState replayed(GlobalState global, LocalResult result) {
        synchronized (replays) {
            if (global != replaysFor) {
                replays.clear();
                replaysFor = global;
            }
            CmaesState kept = replays.get(result);
            if (kept != null) {
                return kept;
            }
        }
        CmaesState state = ClientSearch.replay(startOf(global), search, seed, global.round(), result.clientId(),
                result.told()).state();
        synchronized (replays) {
            if (global == replaysFor) {
                replays.put(result, state);
            }
        }
        return state;
    }

    @Override
    public void prepare(MethodState global) {
        strategy.prepare((GlobalState) global);
    }

    @Override
    public String screen(MethodState global, Upload upload) {
        if (!(upload instanceof LocalResult result)) {
            return "not an upload of " + name;
        }
        if (result.mean().length != dimension) {
            return "mean has dimension " + result.mean().length + ", expected " + dimension;
        }
        if (strategy.needsLocalStates() && result.localState() == null) {
            if (result.told() == null) {
                return "neither a local CMA-ES state, which this method averages, nor the fitness values to replay it";
            }
            try {
                if (!Arrays.equals(search.precision().round(replayed((GlobalState) global, result).mean()),
                        result.mean())) {
                    return "its mean is not the one its search gives when replayed from its told fitness values";
                }
            } catch (IllegalArgumentException wrongShape) {
                return wrongShape.getMessage();
            }
        }
        if (!Arrays.stream(result.mean()).allMatch(Double::isFinite)
                || !Arrays.stream(result.sigmas()).allMatch(Double::isFinite)) {
            return "non-finite numbers in mean or sigmas";
        }
        return null;
    }

    @Override
    public Prompt evaluationPrompt(MethodState global) {
        return new Prompt.Continuous(((GlobalState) global).cmaes().mean());
    }

    @Override
    public Map<String, Double> metrics(MethodState global) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("sigma", ((GlobalState) global).cmaes().sigma());
        return metrics;
    }

    /** The downlink is the server's whole state, so a holder of it replays the server's aggregate from these. */
    @Override
    public RoundResults downlinkUpdate(MethodState global, int round, List<Upload> previousUploads) {
        return runsRounds && previousUploads != null && !previousUploads.isEmpty()
                ? new RoundResults(previousUploads.stream().map(u -> (LocalResult) u).toList()) : null;
    }

    @Override
    public GlobalState replay(Downlink held, Payload update) {
        if (!(held instanceof GlobalState state) || !(update instanceof RoundResults round)) {
            throw new IllegalArgumentException(name + " rebuilds a global state from a round's results");
        }
        return aggregate(state, List.copyOf(round.results()));
    }
}
