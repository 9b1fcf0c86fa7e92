package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.method.Payload;
import java.util.List;

/**
 * A round's accepted uploads in client id order: FedBPT's and FedAvg-BBT's downlink update, from which a holder of
 * the round's state replays the server's aggregate to the next ({@link FedBptMethod#replay}).
 */
public record RoundResults(List<LocalResult> results) implements Payload {
    public RoundResults {
        if (results == null || results.isEmpty()) {
            throw new IllegalArgumentException("a round's results must not be empty");
        }
        results = List.copyOf(results);
    }

    @Override
    public String codec() {
        return CmaesPayloads.NAME;
    }
}
