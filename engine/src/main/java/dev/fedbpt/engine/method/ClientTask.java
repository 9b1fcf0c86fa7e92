package dev.fedbpt.engine.method;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;

/**
 * Everything a client's procedure may use besides the downlink: who it is, which round (counted from 0: the rounds
 * completed before it), its own training data, the model's vocabulary, the experiment seed every random draw derives
 * from, and what it kept from its previous round (null when nothing). For a personalised method also its own test
 * rows (null where the experiment gives clients none) and whether it takes part in the federated rounds (a client
 * held out of them only joins the personalisation round), and its rows held apart from the federated training
 * data where the method asks for them ({@link MethodNeeds#heldApartPerClass()}; else null).
 */
public record ClientTask(int clientId, int round, LocalData data, Vocabulary vocabulary, long seed,
                         ClientMemory memory, LocalData test, boolean participant, HeldApart heldApart) {
    /** A client without held-apart rows. */
    public ClientTask(int clientId, int round, LocalData data, Vocabulary vocabulary, long seed, ClientMemory memory,
                      LocalData test, boolean participant) {
        this(clientId, round, data, vocabulary, seed, memory, test, participant, null);
    }

    /** A participant without test rows of its own (every client of a method that is not personalised). */
    public ClientTask(int clientId, int round, LocalData data, Vocabulary vocabulary, long seed, ClientMemory memory) {
        this(clientId, round, data, vocabulary, seed, memory, null, true, null);
    }

    public ClientTask {
        if (clientId < 0 || round < 0) {
            throw new IllegalArgumentException("clientId and round must be >= 0");
        }
        if (data == null || vocabulary == null) {
            throw new IllegalArgumentException("data and vocabulary must not be null");
        }
    }
}
