package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.Downlink;

/**
 * What a sampled client starts a round from: the prompt P' itself, so that any client (one that missed rounds, one
 * held out, one on another cluster member) can start. What the paper counts as the download is the update that made
 * this P' from the previous one, which a client that holds the previous prompt receives instead
 * ({@link DlsEcMethod#downlinkUpdate}).
 */
record DlsEcDownlink(int round, float[][] prompt) implements Downlink {
    @Override
    public String codec() {
        return DlsEcPayloads.NAME;
    }
}
