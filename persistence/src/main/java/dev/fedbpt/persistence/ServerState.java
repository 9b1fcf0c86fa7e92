package dev.fedbpt.persistence;

import dev.fedbpt.engine.fedbpt.Digests;
import dev.fedbpt.engine.fedbpt.GlobalState;
import dev.fedbpt.engine.fedbpt.LocalResult;
import dev.fedbpt.engine.fedbpt.ServerStrategy;
import java.util.ArrayList;
import java.util.List;

/**
 * The server's state, rebuilt from its events. Pure: {@link #apply} is the event handler of the event-sourced
 * server and runs the server strategy when a round closes, so live runs and replays compute the same bytes.
 *
 * @param global           the global search state after the last completed round (null before the start event)
 * @param open             the round in progress, or null between rounds
 * @param rounds           one summary per completed round, in order
 * @param zeroShotAccuracy accuracy without a prompt, once evaluated
 */
public record ServerState(
        String configHash,
        GlobalState global,
        OpenRound open,
        List<RoundSummary> rounds,
        Double zeroShotAccuracy,
        boolean finished) implements CborSerializable {

    public static ServerState empty() {
        return new ServerState(null, null, null, List.of(), null, false);
    }

    public boolean started() {
        return configHash != null;
    }

    public int roundsCompleted() {
        return rounds.size();
    }

    /** Whether the prompt after {@code round} completed rounds (0 = zero-shot) has been evaluated. */
    public boolean evaluated(int round) {
        if (round == 0) {
            return zeroShotAccuracy != null;
        }
        return round <= rounds.size() && rounds.get(round - 1).testAccuracy() != null;
    }

    public ServerState apply(ServerEvent event, ServerStrategy strategy) {
        if (event instanceof ServerEvent.ExperimentStarted e) {
            return new ServerState(e.configHash(), strategy.initial(e.dimension(), e.sigma0()),
                    null, List.of(), null, false);
        } else if (event instanceof ServerEvent.RoundOpened e) {
            return withOpen(OpenRound.opened(e.round(), e.attempt(), e.sampled()));
        } else if (event instanceof ServerEvent.ResultAccepted e) {
            return withOpen(open.withAccepted(e.result()));
        } else if (event instanceof ServerEvent.ClientDropped e) {
            return withOpen(open.withDropped(e.clientId(), e.reason()));
        } else if (event instanceof ServerEvent.RoundClosed e) {
            return closeRound(e, strategy);
        } else if (event instanceof ServerEvent.PromptEvaluated e) {
            return withAccuracy(e.round(), e.accuracy());
        } else if (event instanceof ServerEvent.ExperimentFinished) {
            return new ServerState(configHash, global, null, rounds, zeroShotAccuracy, true);
        }
        throw new IllegalArgumentException("unknown event " + event);
    }

    private ServerState withOpen(OpenRound next) {
        return new ServerState(configHash, global, next, rounds, zeroShotAccuracy, finished);
    }

    private ServerState closeRound(ServerEvent.RoundClosed event, ServerStrategy strategy) {
        List<LocalResult> results = open.accepted();
        GlobalState next = strategy.aggregate(global, results);
        double meanLoss = results.stream().mapToDouble(LocalResult::loss).average().orElse(Double.NaN);
        long bytesUp = results.stream().mapToLong(strategy::uplinkBytes).sum();
        long bytesDown = (long) open.sampled().length * strategy.downlinkBytes(global);
        RoundSummary summary = new RoundSummary(event.round(), open.attempt(), open.sampled().length,
                results.size(), open.dropped().size(), meanLoss, next.cmaes().sigma(), null, bytesUp, bytesDown,
                event.forwardRows(), event.wallMs(), event.incidents(), Digests.sha256(next.cmaes().mean()),
                results.stream().map(r -> new RoundSummary.ClientUpload(r.clientId(), r.loss(), r.sampleCount()))
                        .toList());
        List<RoundSummary> completed = new ArrayList<>(rounds);
        completed.add(summary);
        return new ServerState(configHash, next, null, List.copyOf(completed), zeroShotAccuracy, finished);
    }

    private ServerState withAccuracy(int round, double accuracy) {
        if (round == 0) {
            return new ServerState(configHash, global, open, rounds, accuracy, finished);
        }
        List<RoundSummary> updated = new ArrayList<>(rounds);
        updated.set(round - 1, rounds.get(round - 1).withTestAccuracy(accuracy));
        return new ServerState(configHash, global, open, List.copyOf(updated), zeroShotAccuracy, finished);
    }
}
