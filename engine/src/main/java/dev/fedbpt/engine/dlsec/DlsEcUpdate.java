package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.Payload;

/**
 * DLS-EC's downlink update: the compressed update (or FullDownload's fp16 prompt) that made a round's prompt from
 * the previous one, as the paper's download sends it ({@link UpdateWire#download}); a client holding the previous
 * prompt applies it ({@link Update#apply}) and holds the server's prompt bit for bit.
 */
record DlsEcUpdate(Update update) implements Payload {
    DlsEcUpdate {
        if (update == null) {
            throw new IllegalArgumentException("update must not be null");
        }
    }

    @Override
    public String codec() {
        return DlsEcPayloads.NAME;
    }
}
