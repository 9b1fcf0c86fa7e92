package dev.fedbpt.engine.fedpeptao;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.gradient.AdamW;
import dev.fedbpt.engine.gradient.InitialPrompt;
import dev.fedbpt.engine.gradient.LocalTraining;
import dev.fedbpt.engine.gradient.PromptLayout;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.MethodTraits;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.SettingException;
import dev.fedbpt.engine.method.Upload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * FedPepTAO (Che et al., EMNLP 2023; spec B) as its code runs it: a P-tuning v2 prefix on every layer
 * ({@code gradient.prefix-length}, started as fedp-tuning's), of which only the selected layers are federated; every
 * device trains its whole prefix with a local AdamW that lives on across its rounds, keeps the other layers as its
 * own, and sends the selected ones; the server averages them and corrects client drift with control variates and
 * momentum ({@link ServerStep}). After the federated rounds every device, held out or not, scores its own prefix on
 * its own test rows (P and NP accuracy).
 *
 * <p>The layers are given ({@code fedpeptao.selected-layers}: ids, or "all"), or with "auto" chosen by Algorithm 1:
 * {@code fedpeptao.warm-up-rounds} rounds of FedAvg over every layer in which each sampled device also reports its
 * layer scores ({@link LayerScores}); one selection round in which each sampled device measures the keep ratio of
 * the Hessian at the warmed-up prefix ({@link HessianRatio}); the server ranks the layers by the row-weighted
 * consensus of the scores it received and keeps the first ones up to the devices' mean ratio; then Algorithm 2
 * starts from scratch (the initial prefix, no control variates, no momentum, and devices drop what they kept).
 * Those rounds count in {@code experiment.rounds}.
 */
final class PepTaoMethod implements FederatedMethod {
    enum Phase { WARM_UP, SELECTION, TRAINING, PERSONALISATION }

    private final PepTaoConfig config;
    private final MethodContext context;
    private PromptLayout layout;

    PepTaoMethod(PepTaoConfig config, MethodContext context) {
        this.config = config;
        this.context = context;
        if (config.choose() && context.rounds() < config.warmUpRounds() + 2) {
            throw new SettingException("fedpeptao.warm-up-rounds", "selected-layers = auto runs "
                    + config.warmUpRounds() + " warm-up rounds and a selection round before training: "
                    + "experiment.rounds must be at least " + (config.warmUpRounds() + 2) + ", was "
                    + context.rounds());
        }
    }

    /** The prefix's shape, read from the model on first use (it loads after the method is built). */
    private synchronized PromptLayout layout() {
        if (layout == null) {
            layout = new PromptLayout(0, config.local().prefixLength(), context.model().embeddings().hiddenSize(),
                    context.model().layers());
        }
        return layout;
    }

    private LayerSlice slice(int[] selected) {
        return new LayerSlice(layout(), selected);
    }

    private int[] allLayers() {
        int[] all = new int[layout().layers()];
        Arrays.setAll(all, i -> i);
        return all;
    }

    Phase phase(int round) {
        if (round >= context.rounds()) return Phase.PERSONALISATION;
        if (!config.choose()) return Phase.TRAINING;
        if (round < config.warmUpRounds()) return Phase.WARM_UP;
        return round == config.warmUpRounds() ? Phase.SELECTION : Phase.TRAINING;
    }

    @Override
    public String name() {
        return "fedpeptao";
    }

    @Override
    public Map<String, Object> resultFields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("trainable_parameters", layout().size());
        fields.put("layer_selection", config.choose() ? "algorithm-1" : "given");
        fields.put("reading", config.reading());
        return fields;
    }

    /** With the layers federated at the end (Algorithm 1's keep ratio is a metric: final_keep_ratio). */
    @Override
    public Map<String, Object> resultFields(MethodState global) {
        Map<String, Object> fields = new LinkedHashMap<>(resultFields());
        int[] selected = ((PepTaoState) global).selected();
        if (selected != null) fields.put("selected_layers", selected);
        return fields;
    }

    private float[] initialPrefix() {
        return InitialPrompt.prefix(layout(), config.local().prefixInitStd(), context.seed());
    }

    @Override
    public MethodState initialize() {
        int[] selected = config.choose() ? null : config.selected(layout().layers());
        return fresh(0, selected, 0, List.of(), Double.NaN);
    }

    /** Algorithm 2's start: the initial prefix, no control variates, no momentum, the server's first rate. */
    private PepTaoState fresh(int round, int[] selected, int restart, List<PepTaoState.DeviceScores> scores,
                              double keepRatio) {
        int size = selected == null ? 0 : slice(selected).size();
        return new PepTaoState(round, initialPrefix(), selected, restart, scores, keepRatio, new double[size],
                new double[size], null, config.serverLr(), new TreeMap<>(), List.of());
    }

    @Override
    public Downlink configure(MethodState global, int round) {
        PepTaoState s = (PepTaoState) global;
        float[] params = s.selected() == null ? s.global() : slice(s.selected()).cut(s.global());
        return new PepTaoDownlink(s.round(), s.selected(), s.restart(), params);
    }

    @Override
    public ClientProcedure client(Downlink downlink, ClientTask task) {
        PepTaoDownlink d = (PepTaoDownlink) downlink;
        PersonalPrefix kept = (PersonalPrefix) task.memory();
        if (kept != null && kept.round() < d.restart()) kept = null; // from before Algorithm 2 started
        Phase phase = phase(d.round());
        int firstBatch = Math.min(config.local().batchSize(), task.data().size());
        if (phase == Phase.SELECTION) {
            LocalData data = task.data();
            return new HessianRatio(layout(), d.params(), data.tokenIds().subList(0, firstBatch),
                    Arrays.copyOf(data.labels(), firstBatch), config.lanczosSteps(),
                    config.hvpStep() * config.local().prefixInitStd(), task);
        }
        LayerSlice slice = slice(d.selected() == null ? allLayers() : d.selected());
        float[] own = slice.put(kept == null ? initialPrefix() : kept.params(), d.params());
        if (phase == Phase.PERSONALISATION) {
            return new PersonalTest(layout().prompt(own), task);
        }
        if (phase == Phase.WARM_UP) {
            PersonalPrefix warm = kept;
            return new ScoredTraining(task.data().tokenIds().subList(0, firstBatch),
                    scores -> training(own, warm, slice, task, scores));
        }
        return training(own, kept, slice, task, new double[0]);
    }

    private LocalTraining training(float[] own, PersonalPrefix kept, LayerSlice slice, ClientTask task,
                                   double[] layerScores) {
        double[] start = PromptLayout.widen(own);
        boolean persist = config.adamState() == PepTaoConfig.AdamState.PERSIST;
        AdamW adam = persist && kept != null && kept.adamSteps() > 0
                ? new AdamW(config.local().adam(), PromptLayout.widen(kept.adamM()), PromptLayout.widen(kept.adamV()),
                kept.adamSteps())
                : new AdamW(config.local().adam(), start.length);
        return new LocalTraining(layout(), config.local(), start, adam, task, (params, loss, steps) -> {
            float[] trained = PromptLayout.narrow(params);
            PersonalPrefix keep = persist
                    ? new PersonalPrefix(task.round(), trained, PromptLayout.narrow(adam.firstMoment()),
                    PromptLayout.narrow(adam.secondMoment()), adam.steps())
                    : new PersonalPrefix(task.round(), trained, new float[0], new float[0], 0);
            return new ClientProcedure.Finished(new PepTaoUpload(task.round(), task.clientId(), loss,
                    task.data().size(), steps, slice.cut(trained), layerScores), keep);
        });
    }

    @Override
    public MethodState aggregate(MethodState global, List<Upload> uploads) {
        PepTaoState s = (PepTaoState) global;
        int next = s.round() + 1;
        switch (phase(s.round())) {
            case PERSONALISATION -> {
                List<PersonalAccuracy> results = new ArrayList<>();
                for (Upload u : uploads) results.add((PersonalAccuracy) u);
                results.sort(Comparator.comparingInt(PersonalAccuracy::clientId));
                return new PepTaoState(next, s.global(), s.selected(), s.restart(), s.layerScores(), s.keepRatio(),
                        s.cg(), s.m(), s.deltaPrev(), s.eta(), s.ci(), List.copyOf(results));
            }
            case SELECTION -> {
                return select(s, uploads);
            }
            case WARM_UP -> {
                return warmUp(s, uploads);
            }
            default -> {
                return train(s, uploads);
            }
        }
    }

    /** FedAvg over every layer weighted by rows; each device's latest layer scores kept. */
    private PepTaoState warmUp(PepTaoState s, List<Upload> uploads) {
        List<PepTaoUpload> sorted = sorted(uploads);
        Map<Integer, PepTaoState.DeviceScores> scores = new TreeMap<>();
        for (PepTaoState.DeviceScores d : s.layerScores()) scores.put(d.clientId(), d);
        float[] global = s.global();
        if (!sorted.isEmpty()) {
            double rows = 0;
            for (PepTaoUpload u : sorted) rows += u.sampleCount();
            double[] sum = new double[global.length];
            for (PepTaoUpload u : sorted) {
                double w = u.sampleCount() / rows;
                for (int j = 0; j < sum.length; j++) sum[j] += w * u.selected()[j];
                scores.put(u.clientId(), new PepTaoState.DeviceScores(u.clientId(), u.sampleCount(),
                        u.layerScores()));
            }
            global = PromptLayout.narrow(sum);
        }
        return new PepTaoState(s.round() + 1, global, null, 0, List.copyOf(scores.values()), Double.NaN, s.cg(),
                s.m(), null, s.eta(), s.ci(), List.of());
    }

    /** SL from the consensus ranking and the devices' mean keep ratio; Algorithm 2 starts afresh next round. */
    private PepTaoState select(PepTaoState s, List<Upload> uploads) {
        double sum = 0;
        for (Upload u : uploads) sum += ((RatioUpload) u).ratio();
        List<double[]> scores = new ArrayList<>();
        int[] rows = new int[s.layerScores().size()];
        for (int i = 0; i < rows.length; i++) {
            scores.add(s.layerScores().get(i).scores());
            rows[i] = s.layerScores().get(i).rows();
        }
        int layers = layout().layers();
        if (uploads.isEmpty() || scores.isEmpty()) {
            // nobody measured: federate every layer rather than guess
            return fresh(s.round() + 1, allLayers(), s.round() + 1, s.layerScores(), Double.NaN);
        }
        double ratio = sum / uploads.size();
        int[] selected = LayerScores.select(LayerScores.order(scores, rows, layers), ratio);
        return fresh(s.round() + 1, selected, s.round() + 1, s.layerScores(), ratio);
    }

    private PepTaoState train(PepTaoState s, List<Upload> uploads) {
        List<PepTaoUpload> sorted = sorted(uploads);
        if (sorted.isEmpty()) {
            return new PepTaoState(s.round() + 1, s.global(), s.selected(), s.restart(), s.layerScores(),
                    s.keepRatio(), s.cg(), s.m(), s.deltaPrev(), s.eta(), s.ci(), s.personal());
        }
        LayerSlice slice = slice(s.selected());
        ServerStep.Next next = ServerStep.apply(config, config.local().adam().learningRate(),
                PromptLayout.widen(slice.cut(s.global())), s.cg(), s.m(), s.deltaPrev(), s.eta(), s.ci(), sorted);
        return new PepTaoState(s.round() + 1, slice.put(s.global(), PromptLayout.narrow(next.global())),
                s.selected(), s.restart(), s.layerScores(), s.keepRatio(), next.cg(), next.m(), next.deltaPrev(),
                next.eta(), next.ci(), s.personal());
    }

    private static List<PepTaoUpload> sorted(List<Upload> uploads) {
        List<PepTaoUpload> sorted = new ArrayList<>();
        for (Upload u : uploads) sorted.add((PepTaoUpload) u);
        sorted.sort(Comparator.comparingInt(Upload::clientId));
        return sorted;
    }

    @Override
    public String screen(MethodState global, Upload upload) {
        PepTaoState s = (PepTaoState) global;
        switch (phase(s.round())) {
            case PERSONALISATION -> {
                if (!(upload instanceof PersonalAccuracy r)) {
                    return "the personalisation round expects a test result, got "
                            + upload.getClass().getSimpleName();
                }
                return r.testCount() < 1 || r.correct() < 0 || r.correct() > r.testCount()
                        ? "inconsistent test counts " + r.correct() + " of " + r.testCount() : null;
            }
            case SELECTION -> {
                if (!(upload instanceof RatioUpload r)) {
                    return "the selection round expects a keep ratio, got " + upload.getClass().getSimpleName();
                }
                return r.ratio() >= 0 && r.ratio() <= 1 ? null : "a keep ratio of " + r.ratio();
            }
            default -> {
                if (!(upload instanceof PepTaoUpload u)) {
                    return "expected the federated layers' prefix, got " + upload.getClass().getSimpleName();
                }
                int size = s.selected() == null ? layout().size() : slice(s.selected()).size();
                if (u.selected().length != size) {
                    return u.selected().length + " parameters, expected " + size;
                }
                int scores = phase(s.round()) == Phase.WARM_UP ? layout().layers() - 1 : 0;
                if (u.layerScores().length != scores) {
                    return u.layerScores().length + " layer scores, expected " + scores;
                }
                if (u.sampleCount() <= 0 || u.steps() <= 0) {
                    return "a device with no rows or no local steps";
                }
                for (float v : u.selected()) {
                    if (!Float.isFinite(v)) return "the parameters have a non-finite value";
                }
                for (double v : u.layerScores()) {
                    if (!Double.isFinite(v)) return "a non-finite layer score";
                }
                return null;
            }
        }
    }

    /** The global prefix: the federated layers as aggregated, the others as initialised (no device's own). */
    @Override
    public Prompt evaluationPrompt(MethodState global) {
        PepTaoState s = (PepTaoState) global;
        Prompt.Deep prompt = layout().prompt(s.global());
        if (s.selected() == null || config.unselected() == PepTaoConfig.Unselected.START) {
            return prompt;
        }
        int[] unselected = IntStream.range(0, layout().layers())
                .filter(l -> Arrays.stream(s.selected()).noneMatch(k -> k == l)).toArray();
        return unselected.length == 0 ? prompt : prompt.masking(unselected);
    }

    @Override
    public Map<String, Double> metrics(MethodState global) {
        PepTaoState s = (PepTaoState) global;
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("server_lr", s.eta());
        if (s.selected() != null) metrics.put("federated_layers", (double) s.selected().length);
        if (!Double.isNaN(s.keepRatio())) metrics.put("keep_ratio", s.keepRatio());
        if (!s.personal().isEmpty()) {
            put(metrics, MethodTraits.P_ACCURACY, accuracy(s.personal(), true, false));
            put(metrics, MethodTraits.NP_ACCURACY, accuracy(s.personal(), false, false));
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
}
