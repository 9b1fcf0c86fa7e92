package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.KindCodec;
import dev.fedbpt.engine.method.PayloadWriter;

/**
 * The payload codec of the gradient methods, for the journal and the wire: big-endian, floats and doubles as their
 * IEEE 754 bits. A kind byte, then the fields in record order; the parameters as one row of
 * {@link PayloadWriter#putRow}.
 */
public final class GradientPayloads extends KindCodec {
    public static final String NAME = "gradient";

    public GradientPayloads() {
        super(NAME);
        kind(1, PromptState.class, (out, s) -> out.putInt(s.round()).putRow(s.params()),
                in -> new PromptState(in.getInt(), in.row()));
        kind(2, ParamsUpload.class,
                (out, u) -> out.putInt(u.round()).putInt(u.clientId()).putDouble(u.loss()).putInt(u.sampleCount())
                        .putRow(u.params()),
                in -> new ParamsUpload(in.getInt(), in.getInt(), in.getDouble(), in.getInt(), in.row()));
    }
}
