package dev.fedbpt.engine.method;

/**
 * A client's answer to one round, ended by its {@link ClientProcedure}. Besides its method-specific content the
 * framework reads only these coordinates: which round and client it answers, the training loss the client measured
 * on its own data (reported per round), and how many examples it holds.
 */
public interface Upload extends Payload {
    /** The round it answers, counted as the engine counts them: the rounds completed before it (0-based). */
    int round();

    int clientId();

    double loss();

    int sampleCount();
}
