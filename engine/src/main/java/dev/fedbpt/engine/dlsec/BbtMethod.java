package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.Fp16;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.Upload;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DLS-EC's BBT baselines (the paper's Table 2), on the same prompt: the first prompt P0 (DLS-EC's first tokens) plus
 * reshape(A z), A DLS-EC's post-tuning projection.
 * <ul>
 *   <li>{@code bbt} (local only): no federated round; in the personalisation round each client runs BBT alone from
 *       P0 (sigma {@code bbt.sigma} = 1, {@code bbt.budget} forward calls) and is scored on its own test rows.</li>
 *   <li>{@code bbt-fed}: FedAvg over z. Each federated round every sampled client runs one CMA-ES generation of
 *       {@code dls-ec.post-tuning.population} queries per local step ({@code dls-ec.local-steps} of them, as DLS-EC's
 *       clients take) from the global z with sigma {@code bbt.sigma}, and uploads its final mean in fp16; the server
 *       averages them uniformly and sends the mean in fp16 (500 x 16 = 8,000 bits each way at d = 500). Then the
 *       personalisation round post-tunes from P0 + A z as DLS-EC's does.</li>
 * </ul>
 */
final class BbtMethod implements FederatedMethod {
    enum Mode { LOCAL, FEDERATED }

    private final String name;
    private final Mode mode;
    private final DlsEcConfig config;
    private final double sigma;
    private final int budget;
    private final MethodContext context;
    private final Lazy<Projection> projection;
    private final Lazy<float[][]> firstPrompt;

    BbtMethod(String name, Mode mode, DlsEcConfig config, double sigma, int budget, MethodContext context) {
        this.name = name;
        this.mode = mode;
        this.config = config;
        this.sigma = sigma;
        this.budget = budget;
        this.context = context;
        postTuning().checked(mode == Mode.LOCAL ? "bbt.budget" : "dls-ec.post-tuning.budget");
        projection = Personalisation.projection(config, context);
        firstPrompt = new Lazy<>(() -> Personalisation.firstPrompt(config.promptLength(), config.firstToken(),
                context.model()));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public MethodState initialize() {
        return new BbtState(0, new float[config.postTuning().dimension()], List.of());
    }

    @Override
    public Downlink configure(MethodState global, int round) {
        return (BbtState) global;
    }

    @Override
    public ClientProcedure client(Downlink downlink, ClientTask task) {
        BbtState state = (BbtState) downlink;
        Projection projection = this.projection.get();
        int population = config.postTuning().population();
        if (state.round() < context.rounds()) {
            return new LocalBbt(projection, firstPrompt.get(), doubles(state.z()), sigma, population,
                    config.localSteps(), task);
        }
        if (mode == Mode.LOCAL) {
            return new PostTuning(postTuning(), projection, firstPrompt.get(), task);
        }
        return new PostTuning(postTuning(), projection,
                projection.apply(firstPrompt.get(), doubles(state.z())), task);
    }

    /** The personalisation round's settings: BBT's own sigma and budget for bbt alone, DLS-EC's for bbt-fed. */
    private DlsEcConfig.PostTuning postTuning() {
        return mode == Mode.LOCAL ? config.postTuning().with(sigma, budget) : config.postTuning();
    }

    @Override
    public MethodState aggregate(MethodState global, List<Upload> uploads) {
        BbtState state = (BbtState) global;
        if (state.round() >= context.rounds()) {
            return new BbtState(state.round() + 1, state.z(), Personalisation.results(uploads));
        }
        List<Upload> sorted = new ArrayList<>(uploads);
        sorted.sort(Comparator.comparingInt(Upload::clientId));
        double[] sum = new double[state.z().length];
        for (Upload upload : sorted) {
            float[] z = ((ZUpload) upload).z();
            for (int i = 0; i < sum.length; i++) {
                sum[i] += z[i];
            }
        }
        float[] mean = new float[sum.length];
        for (int i = 0; i < mean.length; i++) {
            mean[i] = Fp16.round(sum[i] / sorted.size());
        }
        return new BbtState(state.round() + 1, mean, List.of());
    }

    @Override
    public String screen(MethodState global, Upload upload) {
        BbtState state = (BbtState) global;
        if (state.round() >= context.rounds()) {
            return Personalisation.screen(upload);
        }
        if (!(upload instanceof ZUpload u)) {
            return "a federated round expects a z, got " + upload.getClass().getSimpleName();
        }
        if (u.z().length != state.z().length) {
            return "z of dimension " + u.z().length + ", expected " + state.z().length;
        }
        for (float v : u.z()) {
            if (!Float.isFinite(v)) {
                return "z has a non-finite value";
            }
        }
        return null;
    }

    @Override
    public Prompt evaluationPrompt(MethodState global) {
        BbtState state = (BbtState) global;
        return new Prompt.Embeddings(projection.get().apply(firstPrompt.get(), doubles(state.z())));
    }

    @Override
    public Map<String, Double> metrics(MethodState global) {
        BbtState state = (BbtState) global;
        Map<String, Double> metrics = new LinkedHashMap<>();
        if (mode == Mode.FEDERATED) {
            metrics.put("uplink_bits", 8.0 * fp16Message(state.z()).length);
            metrics.put("downlink_bits", 8.0 * downlinkBytes(global));
        }
        Personalisation.report(state.personal(), postTuning(), metrics);
        return metrics;
    }

    /** A z as it travels: its fp16 values, d x 16 bits. */
    static byte[] fp16Message(float[] z) {
        ByteBuffer out = ByteBuffer.allocate(2 * z.length);
        for (float v : z) {
            out.putShort(Fp16.fromFloat(v));
        }
        return out.array();
    }

    public long uplinkBytes(Upload upload) {
        return upload instanceof ZUpload u ? fp16Message(u.z()).length : 0;
    }

    /** The global z in fp16 after the first round (before it every client starts from z = 0). */
    public long downlinkBytes(MethodState global) {
        BbtState state = (BbtState) global;
        return mode == Mode.FEDERATED && state.round() > 0 ? fp16Message(state.z()).length : 0;
    }

    private static double[] doubles(float[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = values[i];
        }
        return out;
    }
}
