package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.method.ClientMemory;

/**
 * What a device keeps between its rounds: the round it was made in, its whole prefix (the layers that are not
 * federated are its own, trained only here) and, when its optimiser persists (the code), AdamW's moments and step
 * count, as float32 as torch keeps them for float32 parameters ({@code adamSteps} 0 and empty moments otherwise).
 */
record PersonalPrefix(int round, float[] params, float[] adamM, float[] adamV, int adamSteps) implements ClientMemory {
    @Override
    public String codec() {
        return PepTaoPayloads.NAME;
    }
}
