package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.MethodState;

import java.util.List;

/**
 * The server's state: the rounds aggregated, the prompt P' every client holds, the update that made it (the round's
 * download; null before the first round), how many positions the compression's guard filled so far, and after the
 * personalisation round every client's result in client id order.
 */
record DlsEcState(int round, float[][] prompt, Update update, long screenedPositions,
                  List<PersonalResult> personal) implements MethodState {
    DlsEcState {
        personal = List.copyOf(personal);
    }

    @Override
    public String codec() {
        return DlsEcPayloads.NAME;
    }
}
