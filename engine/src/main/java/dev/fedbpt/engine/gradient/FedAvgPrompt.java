package dev.fedbpt.engine.gradient;

import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.Upload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gradient baselines of FedBPT's Table 1, FedAvg over a white-box prompt:
 * <ul>
 *   <li>{@code fedprompt} (FedPrompt, Zhao et al. 2023): a soft prompt of {@code gradient.prompt-length} input
 *       vectors after [CLS], started from the word embeddings of {@code gradient.first-token} on;</li>
 *   <li>{@code fedp-tuning} (FedP-tuning), as {@code gradient.fedp-tuning} says: FedBPT's code's P-tuning prompt
 *       encoder ({@link PromptEncoder}: its whole LSTM and MLP trained and averaged, its output the input prompt) or
 *       a P-tuning v2 prefix of {@code gradient.prefix-length} key and value vectors on every layer, started from
 *       N(0, prefix-init-std^2) drawn once from the experiment seed.</li>
 * </ul>
 * Every sampled client starts from the global parameters, trains locally ({@link LocalTraining}) and uploads its
 * parameters; the server averages them weighted by the clients' row counts (FedAvg), in client-id order, in double,
 * and rounds to float32. Both directions carry the parameters as float32: 4 bytes each.
 */
final class FedAvgPrompt implements FederatedMethod {
    enum Kind { SOFT_PROMPT, PREFIX, PROMPT_ENCODER }

    private final String name;
    private final Kind kind;
    private final GradientConfig config;
    private final MethodContext context;

    FedAvgPrompt(String name, Kind kind, GradientConfig config, MethodContext context) {
        this.name = name;
        this.kind = kind;
        this.config = config;
        this.context = context;
    }

    @Override
    public String name() {
        return name;
    }

    /** The prompt the model reads. */
    private PromptLayout layout() {
        int hidden = context.model().embeddings().hiddenSize();
        return kind == Kind.PREFIX ? new PromptLayout(0, config.prefixLength(), hidden, context.model().layers())
                : new PromptLayout(config.promptLength(), 0, hidden, 0);
    }

    /** What is trained and averaged: the prompt itself, or the encoder that makes it. */
    private Parameterisation parameterisation() {
        PromptLayout layout = layout();
        return kind == Kind.PROMPT_ENCODER ? new EncodedPrompt(new PromptEncoder(layout.inputLength(),
                layout.hidden()), layout) : layout;
    }

    @Override
    public Map<String, Object> resultFields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("trainable_parameters", parameterisation().size());
        fields.put("trains", kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        return fields;
    }

    @Override
    public MethodState initialize() {
        PromptLayout layout = layout();
        return new PromptState(0, switch (kind) {
            case SOFT_PROMPT -> InitialPrompt.softPrompt(layout, context.model().embeddings(), config.firstToken());
            case PREFIX -> InitialPrompt.prefix(layout, config.prefixInitStd(), context.seed());
            case PROMPT_ENCODER -> new PromptEncoder(layout.inputLength(), layout.hidden())
                    .initialParameters(context.seed());
        });
    }

    @Override
    public Downlink configure(MethodState global, int round) {
        return (PromptState) global;
    }

    @Override
    public ClientProcedure client(Downlink downlink, ClientTask task) {
        double[] start = PromptLayout.widen(((PromptState) downlink).params());
        return new LocalTraining(parameterisation(), config, start, new AdamW(config.adam(), start.length), task,
                (params, loss, steps) -> new ClientProcedure.Finished(new ParamsUpload(task.round(), task.clientId(),
                        loss, task.data().size(), PromptLayout.narrow(params)), null));
    }

    @Override
    public MethodState aggregate(MethodState global, List<Upload> uploads) {
        PromptState state = (PromptState) global;
        List<ParamsUpload> sorted = new ArrayList<>();
        for (Upload u : uploads) sorted.add((ParamsUpload) u);
        sorted.sort(Comparator.comparingInt(Upload::clientId));
        if (sorted.isEmpty()) return new PromptState(state.round() + 1, state.params());
        double total = 0;
        for (ParamsUpload u : sorted) total += u.sampleCount();
        double[] sum = new double[state.params().length];
        for (ParamsUpload u : sorted) {
            double w = u.sampleCount() / total;
            for (int i = 0; i < sum.length; i++) sum[i] += w * u.params()[i];
        }
        float[] mean = new float[sum.length];
        for (int i = 0; i < mean.length; i++) mean[i] = (float) sum[i];
        return new PromptState(state.round() + 1, mean);
    }

    @Override
    public String screen(MethodState global, Upload upload) {
        if (!(upload instanceof ParamsUpload u)) {
            return "expected parameters, got " + upload.getClass().getSimpleName();
        }
        if (u.params().length != ((PromptState) global).params().length) {
            return u.params().length + " parameters, expected " + ((PromptState) global).params().length;
        }
        if (u.sampleCount() <= 0) {
            return "a client with no rows";
        }
        for (float v : u.params()) {
            if (!Float.isFinite(v)) return "the parameters have a non-finite value";
        }
        return null;
    }

    @Override
    public Prompt evaluationPrompt(MethodState global) {
        return parameterisation().map(PromptLayout.widen(((PromptState) global).params())).prompt();
    }

    @Override
    public Map<String, Double> metrics(MethodState global) {
        return Map.of();
    }
}
