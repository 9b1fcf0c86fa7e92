package dev.fedbpt.engine.method;

/**
 * State one client keeps from one of its rounds to its next (a personalised method's local prompt, say). The server
 * journals it with the upload that produced it ({@link ClientProcedure.Finished#memory()}), holds the latest one per
 * client in its snapshot and gives it back in {@link FederatedMethod#client}, so it survives kill -9 and resume
 * exactly, wherever the client runs next. FedBPT's clients keep nothing across rounds.
 */
public interface ClientMemory extends Payload {
}
