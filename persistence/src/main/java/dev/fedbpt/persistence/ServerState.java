package dev.fedbpt.persistence;

import dev.fedbpt.engine.method.ClientMemory;
import dev.fedbpt.engine.method.DownlinkBytes;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.RoundNumbers;
import dev.fedbpt.engine.method.RoundUpdate;
import dev.fedbpt.engine.method.Upload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The server's state, rebuilt from its events. Pure: {@link #apply} is the event handler of the event-sourced
 * server and runs the method's aggregation when a round closes, so live runs and replays compute the same bytes.
 *
 * @param global           the method's global state after the last completed round (null before the start event)
 * @param open             the round in progress, or null between rounds
 * @param rounds           one summary per completed round, in order
 * @param zeroShotAccuracy accuracy without a prompt, once evaluated
 * @param memories         what each client kept from its last round, by client id (method-specific, often none)
 * @param zeroShotMetrics  the task's other metrics without a prompt (F1, MCC), else empty
 * @param zeroShotConfusion how the model without a prompt classified the test rows, once evaluated, else empty
 * @param lastRound        who took part in the last completed round and what it accepted (null before the first,
 *                         and in snapshots written before it existed): what the next round's downlink is counted from
 */
public record ServerState(
        String configHash,
        MethodState global,
        OpenRound open,
        List<RoundSummary> rounds,
        Double zeroShotAccuracy,
        boolean finished,
        List<OpenRound.Kept> memories,
        Map<String, Double> zeroShotMetrics,
        LastRound lastRound,
        Confusion zeroShotConfusion) implements CborSerializable {

    /** The sampled clients of a completed round's closing attempt and its accepted uploads, in client id order. */
    public record LastRound(int[] sampled, List<Upload> uploads) {}

    public ServerState {
        memories = memories == null ? List.of() : memories;
        zeroShotMetrics = RoundSummary.ordered(zeroShotMetrics);
        zeroShotConfusion = Confusion.orEmpty(zeroShotConfusion);
    }

    public static ServerState empty() {
        return new ServerState(null, null, null, List.of(), null, false, List.of(), Map.of(), null, Confusion.EMPTY);
    }

    /** What client {@code clientId} kept from its last round, or null. */
    public ClientMemory memoryOf(int clientId) {
        return memories.stream().filter(kept -> kept.clientId() == clientId).map(OpenRound.Kept::memory)
                .findFirst().orElse(null);
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

    public ServerState apply(ServerEvent event, FederatedMethod method) {
        if (event instanceof ServerEvent.ExperimentStarted e) {
            return new ServerState(e.configHash(), method.initialize(), null, List.of(), null, false, List.of(),
                    Map.of(), null, Confusion.EMPTY);
        } else if (event instanceof ServerEvent.RoundOpened e) {
            return withOpen(OpenRound.opened(e.round(), e.attempt(), e.sampled()));
        } else if (event instanceof ServerEvent.ResultAccepted e) {
            return withOpen(open.withAccepted(e.upload(), e.memory()));
        } else if (event instanceof ServerEvent.ClientDropped e) {
            return withOpen(open.withDropped(e.clientId(), e.reason()));
        } else if (event instanceof ServerEvent.RoundClosed e) {
            return closeRound(e, method);
        } else if (event instanceof ServerEvent.PromptEvaluated e) {
            return withEvaluation(e);
        } else if (event instanceof ServerEvent.ExperimentFinished) {
            return new ServerState(configHash, global, null, rounds, zeroShotAccuracy, true, memories,
                    zeroShotMetrics, lastRound, zeroShotConfusion);
        }
        throw new IllegalArgumentException("unknown event " + event);
    }

    private ServerState withOpen(OpenRound next) {
        return new ServerState(configHash, global, next, rounds, zeroShotAccuracy, finished, memories,
                zeroShotMetrics, lastRound, zeroShotConfusion);
    }

    private ServerState closeRound(ServerEvent.RoundClosed event, FederatedMethod method) {
        // In client id order, so that sums (the mean loss) never depend on the order answers arrived in.
        List<Upload> uploads = open.accepted().stream().sorted(Comparator.comparingInt(Upload::clientId)).toList();
        MethodState next = method.aggregate(global, uploads);
        double meanLoss = uploads.stream().mapToDouble(Upload::loss).average().orElse(Double.NaN);
        long bytesUp = uploads.stream().mapToLong(RoundUpdate::payloadSize).sum();
        long bytesDown = DownlinkBytes.of(method, global, RoundNumbers.index(open.round()),
                lastRound == null ? null : lastRound.sampled(), lastRound == null ? null : lastRound.uploads())
                .total(open.sampled());
        RoundSummary summary = new RoundSummary(event.round(), open.attempt(), open.sampled().length,
                uploads.size(), open.dropped().size(), meanLoss, method.metrics(next), null, bytesUp, bytesDown,
                event.forwardRows(), event.wallMs(), event.incidents(), fingerprint(method.evaluationPrompt(next)),
                uploads.stream().map(u -> new RoundSummary.ClientUpload(u.clientId(), u.loss(), u.sampleCount()))
                        .toList(), Map.of(), Confusion.EMPTY, null);
        List<RoundSummary> completed = new ArrayList<>(rounds);
        completed.add(summary);
        return new ServerState(configHash, next, null, List.copyOf(completed), zeroShotAccuracy, finished,
                keptAfter(open), zeroShotMetrics, new LastRound(open.sampled(), uploads), zeroShotConfusion);
    }

    /** The prompt's fingerprint; null when the method has no prompt yet. */
    public static String fingerprint(Prompt prompt) {
        return prompt == null ? null : prompt.sha256();
    }

    /** The memories after a round: those its clients kept replace their older ones. */
    private List<OpenRound.Kept> keptAfter(OpenRound closing) {
        if (closing.memories().isEmpty()) {
            return memories;
        }
        List<OpenRound.Kept> next = new ArrayList<>(closing.memories());
        for (OpenRound.Kept kept : memories) {
            if (next.stream().noneMatch(k -> k.clientId() == kept.clientId())) {
                next.add(kept);
            }
        }
        next.sort(Comparator.comparingInt(OpenRound.Kept::clientId));
        return List.copyOf(next);
    }

    private ServerState withEvaluation(ServerEvent.PromptEvaluated e) {
        if (e.round() == 0) {
            return new ServerState(configHash, global, open, rounds, e.accuracy(), finished, memories,
                    e.taskMetrics(), lastRound, e.confusion());
        }
        List<RoundSummary> updated = new ArrayList<>(rounds);
        updated.set(e.round() - 1, rounds.get(e.round() - 1).withEvaluation(e.accuracy(), e.taskMetrics(),
                e.confusion(), e.wallMs()));
        return new ServerState(configHash, global, open, List.copyOf(updated), zeroShotAccuracy, finished,
                memories, zeroShotMetrics, lastRound, zeroShotConfusion);
    }
}
