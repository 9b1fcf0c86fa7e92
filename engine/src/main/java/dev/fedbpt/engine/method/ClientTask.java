package dev.fedbpt.engine.method;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;

/**
 * Everything a client's procedure may use besides the downlink: who it is, which round (counted from 0: the rounds
 * completed before it), its own data, the model's vocabulary, the experiment seed every random draw derives from,
 * and what it kept from its previous round (null when nothing).
 */
public record ClientTask(int clientId, int round, LocalData data, Vocabulary vocabulary, long seed,
                         ClientMemory memory) {
    public ClientTask {
        if (clientId < 0 || round < 0) {
            throw new IllegalArgumentException("clientId and round must be >= 0");
        }
        if (data == null || vocabulary == null) {
            throw new IllegalArgumentException("data and vocabulary must not be null");
        }
    }
}
