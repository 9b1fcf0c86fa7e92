package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.gradient.AdamW;
import dev.fedbpt.engine.gradient.InitialPrompt;
import dev.fedbpt.engine.gradient.LocalTraining;
import dev.fedbpt.engine.gradient.PromptLayout;
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
import java.util.TreeMap;

/**
 * FedPepTAO (Che et al., EMNLP 2023; spec B), Algorithm 2 as its code runs it: a P-tuning v2 prefix on every layer
 * ({@code gradient.prefix-length}, started as fedp-tuning's), of which only the selected layers'
 * ({@code fedpeptao.selected-layers}) are federated; every device trains its whole prefix with a local AdamW that
 * lives on across its rounds, keeps the other layers as its own, and sends the selected ones; the server averages
 * them and corrects client drift with control variates and momentum ({@link ServerStep}). After the federated rounds
 * every device, held out or not, scores its own prefix on its own test rows (P and NP accuracy).
 *
 * <p>Not yet built: Algorithm 1, which chooses the layers (scores from each layer's sample-Gram eigenvalues, the
 * keep ratio from the Hessian spectrum after warm-up rounds); the layers are given.
 */
final class PepTaoMethod implements FederatedMethod {
    private final PepTaoConfig config;
    private final MethodContext context;
    private LayerSlice slice;

    PepTaoMethod(PepTaoConfig config, MethodContext context) {
        this.config = config;
        this.context = context;
    }

    /** The prefix's shape and the federated layers, read from the model on first use (it loads after the method). */
    private synchronized LayerSlice slice() {
        if (slice == null) {
            int layers = context.model().layers();
            PromptLayout layout = new PromptLayout(0, config.local().prefixLength(), context.model().embeddings().hiddenSize(),
                    layers);
            slice = new LayerSlice(layout, config.selected(layers));
        }
        return slice;
    }

    private PromptLayout layout() {
        return slice().layout();
    }

    @Override
    public String name() {
        return "fedpeptao";
    }

    @Override
    public Map<String, Object> resultFields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("trainable_parameters", layout().size());
        fields.put("federated_parameters", slice().size());
        fields.put("selected_layers", slice().layers());
        return fields;
    }

    private float[] initialPrefix() {
        return InitialPrompt.prefix(layout(), config.local().prefixInitStd(), context.seed());
    }

    @Override
    public MethodState initialize() {
        int size = slice().size();
        return new PepTaoState(0, initialPrefix(), new double[size], new double[size], null, config.serverLr(),
                new TreeMap<>(), List.of());
    }

    private boolean personalisation(int round) {
        return round >= context.rounds();
    }

    @Override
    public Downlink configure(MethodState global, int round) {
        PepTaoState s = (PepTaoState) global;
        return new PepTaoDownlink(s.round(), slice().cut(s.global()));
    }

    @Override
    public ClientProcedure client(Downlink downlink, ClientTask task) {
        PepTaoDownlink d = (PepTaoDownlink) downlink;
        PersonalPrefix kept = (PersonalPrefix) task.memory();
        float[] own = slice().put(kept == null ? initialPrefix() : kept.params(), d.selected());
        if (personalisation(d.round())) {
            return new PersonalTest(layout().prompt(own), task);
        }
        double[] start = PromptLayout.widen(own);
        boolean persist = config.adamState() == PepTaoConfig.AdamState.PERSIST;
        AdamW adam = persist && kept != null && kept.adamSteps() > 0
                ? new AdamW(config.local().adam(), PromptLayout.widen(kept.adamM()), PromptLayout.widen(kept.adamV()),
                kept.adamSteps())
                : new AdamW(config.local().adam(), start.length);
        return new LocalTraining(layout(), config.local(), start, adam, task, (params, loss, steps) -> {
            float[] trained = PromptLayout.narrow(params);
            PersonalPrefix keep = persist
                    ? new PersonalPrefix(trained, PromptLayout.narrow(adam.firstMoment()),
                    PromptLayout.narrow(adam.secondMoment()), adam.steps())
                    : new PersonalPrefix(trained, new float[0], new float[0], 0);
            return new ClientProcedure.Finished(new PepTaoUpload(task.round(), task.clientId(), loss,
                    task.data().size(), steps, slice().cut(trained)), keep);
        });
    }

    @Override
    public MethodState aggregate(MethodState global, List<Upload> uploads) {
        PepTaoState s = (PepTaoState) global;
        if (personalisation(s.round())) {
            List<PersonalAccuracy> results = new ArrayList<>();
            for (Upload u : uploads) results.add((PersonalAccuracy) u);
            results.sort(Comparator.comparingInt(PersonalAccuracy::clientId));
            return new PepTaoState(s.round() + 1, s.global(), s.cg(), s.m(), s.deltaPrev(), s.eta(), s.ci(),
                    List.copyOf(results));
        }
        List<PepTaoUpload> sorted = new ArrayList<>();
        for (Upload u : uploads) sorted.add((PepTaoUpload) u);
        sorted.sort(Comparator.comparingInt(Upload::clientId));
        if (sorted.isEmpty()) {
            return new PepTaoState(s.round() + 1, s.global(), s.cg(), s.m(), s.deltaPrev(), s.eta(), s.ci(),
                    s.personal());
        }
        ServerStep.Next next = ServerStep.apply(config, config.local().adam().learningRate(),
                PromptLayout.widen(slice().cut(s.global())), s.cg(), s.m(), s.deltaPrev(), s.eta(), s.ci(), sorted);
        return new PepTaoState(s.round() + 1, slice().put(s.global(), PromptLayout.narrow(next.global())), next.cg(),
                next.m(), next.deltaPrev(), next.eta(), next.ci(), s.personal());
    }

    @Override
    public String screen(MethodState global, Upload upload) {
        PepTaoState s = (PepTaoState) global;
        if (personalisation(s.round())) {
            if (!(upload instanceof PersonalAccuracy r)) {
                return "the personalisation round expects a test result, got " + upload.getClass().getSimpleName();
            }
            return r.testCount() < 1 || r.correct() < 0 || r.correct() > r.testCount()
                    ? "inconsistent test counts " + r.correct() + " of " + r.testCount() : null;
        }
        if (!(upload instanceof PepTaoUpload u)) {
            return "expected the selected layers' prefix, got " + upload.getClass().getSimpleName();
        }
        if (u.selected().length != slice().size()) {
            return u.selected().length + " parameters, expected " + slice().size();
        }
        if (u.sampleCount() <= 0 || u.steps() <= 0) {
            return "a device with no rows or no local steps";
        }
        for (float v : u.selected()) {
            if (!Float.isFinite(v)) return "the parameters have a non-finite value";
        }
        return null;
    }

    /** The global prefix: the selected layers as federated, the others as initialised (no device's own). */
    @Override
    public Prompt evaluationPrompt(MethodState global) {
        return layout().prompt(((PepTaoState) global).global());
    }

    @Override
    public Map<String, Double> metrics(MethodState global) {
        PepTaoState s = (PepTaoState) global;
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("server_lr", s.eta());
        if (!s.personal().isEmpty()) {
            put(metrics, "p_accuracy", accuracy(s.personal(), true, false));
            put(metrics, "np_accuracy", accuracy(s.personal(), false, false));
            put(metrics, "p_accuracy_pooled", accuracy(s.personal(), true, true));
            put(metrics, "np_accuracy_pooled", accuracy(s.personal(), false, true));
        }
        return metrics;
    }

    private static void put(Map<String, Double> metrics, String name, double value) {
        if (!Double.isNaN(value)) metrics.put(name, value);
    }

    /**
     * Accuracy on the devices' own test rows: the mean over devices, or over their rows pooled (the code's metric);
     * NaN for no device.
     */
    static double accuracy(List<PersonalAccuracy> results, boolean participants, boolean pooled) {
        double sum = 0;
        double count = 0;
        for (PersonalAccuracy r : results) {
            if (r.participant() != participants) continue;
            sum += pooled ? r.correct() : (double) r.correct() / r.testCount();
            count += pooled ? r.testCount() : 1;
        }
        return count == 0 ? Double.NaN : sum / count;
    }

    @Override
    public long uplinkBytes(Upload upload) {
        return upload instanceof PepTaoUpload u ? 4L * u.selected().length : 0;
    }

    @Override
    public long downlinkBytes(MethodState global) {
        return 4L * slice().size();
    }
}
