package dev.fedbpt.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigRenderOptions;
import dev.fedbpt.engine.data.TaskDefinition;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.MethodTraits;
import dev.fedbpt.engine.method.Methods;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One experiment, fully resolved and validated. {@code resolvedHocon} is the whole resolved configuration as
 * HOCON: a run folder stores it, and loading it back gives an equal record. Built only by {@link ConfigLoader}, which guarantees that every
 * value is in range, so the rest of the system never re-checks configuration.
 */
public record ExperimentConfig(
        Experiment experiment,
        Data data,
        Federation federation,
        Model model,
        Pool pool,
        Persistence persistence,
        Faults faults,
        String resolvedHocon) {

    /**
     * SHA-256 of the resolved configuration. A run folder records it so that resuming with a different
     * configuration is refused.
     */
    public String canonicalHash() {
        return hashOf(resolvedHocon);
    }

    /** SHA-256 of a configuration's text; of a run folder's stored file, the identity its journal and result record. */
    public static String hashOf(String configurationText) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(configurationText.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /**
     * Settings of how a run executes, not of what it computes: a row's scores do not depend on the batch it is
     * scored in or on ONNX Runtime's thread count ({@code MiniLmPromptModelTest}), and the state a snapshot holds is
     * the state its events rebuild, so a stopped run may continue with other values ({@code ExperimentRunnerTest}).
     * Keys under {@code fedbpt.}; a prefix covers its whole section.
     */
    public static final List<String> EXECUTION_KEYS = List.of("pool", "model.intra-op-threads", "persistence");

    /** Whether {@code key} (under {@code fedbpt.}) is, or lies in, an execution setting. */
    public static boolean isExecutionKey(String key) {
        return EXECUTION_KEYS.stream().anyMatch(prefix -> key.equals(prefix) || key.startsWith(prefix + "."));
    }

    /**
     * The execution settings in which this configuration differs from {@code stored}, each as
     * {@code "pool.workers 1 -> 2"} (keys under {@code fedbpt.}, values as HOCON, in key order).
     */
    public List<String> executionChangesFrom(ExperimentConfig stored) {
        Map<String, String> before = executionValues(stored.resolvedHocon);
        Map<String, String> after = executionValues(resolvedHocon);
        TreeSet<String> keys = new TreeSet<>(before.keySet());
        keys.addAll(after.keySet());
        List<String> changes = new ArrayList<>();
        for (String key : keys) {
            if (!Objects.equals(before.get(key), after.get(key))) {
                changes.add(key + " " + before.getOrDefault(key, "unset") + " -> " + after.getOrDefault(key, "unset"));
            }
        }
        return changes;
    }

    /** Every value under the execution keys, by its path under {@code fedbpt.}. */
    private static Map<String, String> executionValues(String hocon) {
        Config root = ConfigFactory.parseString(hocon).getConfig(ConfigLoader.ROOT);
        Map<String, String> values = new TreeMap<>();
        for (String key : EXECUTION_KEYS) {
            if (root.hasPath(key)) {
                root.withOnlyPath(key).entrySet().forEach(leaf ->
                        values.put(leaf.getKey(), leaf.getValue().render(ConfigRenderOptions.concise())));
            }
        }
        return values;
    }

    /**
     * The resolved configuration without its execution settings: what makes a run folder's experiment. Two
     * configurations with the same experiment text may continue each other's runs.
     */
    public String experimentHocon() {
        return render(without(EXECUTION_KEYS));
    }

    /**
     * SHA-256 of what decides the run's numbers: the experiment ({@link #experimentHocon}) without its name and the
     * keys its method does not read ({@link MethodTraits#unreadKeys}). Two experiments with the same identity compute the
     * same run, bit for bit, so a sweep computes it once.
     */
    public String runIdentity() {
        return identityWithout(experiment.traits().unreadKeys());
    }

    /**
     * SHA-256 of the experiment ({@link #experimentHocon}) without its name and without {@code keys} (under
     * {@code fedbpt.}): two configurations with the same value differ only in those keys.
     */
    public String identityWithout(List<String> keys) {
        List<String> ignored = new ArrayList<>(EXECUTION_KEYS);
        ignored.add("experiment.name");
        ignored.addAll(keys);
        return hashOf(render(without(ignored)));
    }

    private Config without(List<String> keys) {
        Config config = ConfigFactory.parseString(resolvedHocon);
        for (String key : keys) {
            config = config.withoutPath(ConfigLoader.ROOT + "." + key);
        }
        return config;
    }

    private static String render(Config config) {
        return config.root().render(ConfigRenderOptions.concise());
    }

    public enum EvalSplit { TEST, DEV }

    /** Which rows a capped test set keeps: a stratified random sample by the seed, or the file's first N. */
    public enum TestSampling { STRATIFIED, FIRST }

    /**
     * iid, stratified, dirichlet and dirichlet-label (FedPepTAO's) split one train file over federation.clients;
     * domains gives each domain's files a client.
     */
    public enum Split { IID, STRATIFIED, DIRICHLET, DIRICHLET_LABEL, DOMAINS }

    /** utf-8: every data file is UTF-8; auto: a file that is not is read as windows-1252. */
    public enum Encoding { UTF_8, AUTO }

    /** What data.train and data.test write where a domain's name goes (split = domains). */
    public static final String DOMAIN_PLACEHOLDER = "{domain}";

    /** How the prompt enters the model. */
    public enum PromptInjection { PREPEND, ADD_AFTER_LAYERNORM }

    /** The models shipped with fedbpt, by the name {@code model.bundled} takes. */
    public static final List<String> BUNDLED_MODELS = List.of("all-minilm-l6-v2", "bge-small-en-v1.5",
            "bert-base-uncased", "bert-base-cased");

    /** The bundled models that are masked LMs (vocabulary logits): {@code model.head = default} reads them at [MASK]. */
    public static final List<String> MASKED_LM_MODELS = List.of("bert-base-uncased", "bert-base-cased");

    public enum Head { SIMILARITY, MASKED_LM }

    /** How the similarity head pools a row's output vectors: the model's own, mean, or [CLS]. */
    public enum Pooling { DEFAULT, MEAN, CLS }

    /** The arithmetic of the graph's linear layers: fp32, or static int8 calibrated on training rows. */
    public enum Precision { FP32, INT8 }

    public enum Backend { ONNX, SYNTHETIC, PYTORCH }

    /** @param method a name in the method registry ({@link Methods}) */
    public record Experiment(String name, long seed, String method, int rounds, int evalEvery) {
        /** What the framework must know of the method before building it. */
        public MethodTraits traits() {
            return Methods.traits(method);
        }

        /** Whether the test set is scored after {@code round}. */
        public boolean evaluatesAfter(int round) {
            return evaluatesAfter(round, evalEvery, rounds);
        }

        /** The test set is scored after every {@code evalEvery}-th round and after the last. */
        public static boolean evaluatesAfter(int round, int evalEvery, int rounds) {
            return round % evalEvery == 0 || round == rounds;
        }
    }

    /** @param definition the task {@code task} names, read from its task file ({@link TaskFiles}) */
    public record Data(String task, String dir, String train, String test, String format, int shotsPerClass,
                       Split split, double dirichletAlpha, int testLimit, TestSampling testSampling,
                       EvalSplit evalSplit, int devPerClass,
                       int iclExamples, List<String> domains, List<String> heldOut, Encoding encoding,
                       boolean skipEmptyText, int maxRowTokens, TaskDefinition definition) {
        public Data {
            domains = List.copyOf(domains);
            heldOut = List.copyOf(heldOut);
        }

        /** What the accuracies are measured on, as progress lines and result.json name it: "test" or "dev". */
        public String evaluatedOn() {
            return ConfigLoader.valueName(evalSplit);
        }

        /** A domain's file: {@code path} with its name written in. */
        public static String forDomain(String path, String domain) {
            return path.replace(DOMAIN_PLACEHOLDER, domain);
        }
    }

    /** Every resolved value by key, as the methods read them (their own sections included). */
    public MethodSettings settings() {
        return new HoconSettings(ConfigFactory.parseString(resolvedHocon).getConfig(ConfigLoader.ROOT));
    }

    /** The experiment's task: inputs, labels, template and metrics. */
    public TaskDefinition task() {
        return data.definition();
    }

    /** @param heldOutClients how many clients (the highest ids) only join a personalised method's last round */
    public record Federation(int clients, double sampleFraction, double quorum, Duration roundDeadline,
                             int maxAttempts, int heldOutClients) {}

    /** @param cudaDevice the CUDA device the ONNX backend runs on (model.device = cuda or cuda:N); empty: the CPU */
    public record Model(Backend backend, String bundled, String onnx, String tokenizer, Head head,
                        double temperature, int promptLength, PromptInjection promptInjection, long projectionSeed,
                        int intraOpThreads, Pooling pooling, boolean poolTokenPrompt, Precision precision,
                        OptionalInt cudaDevice) {

        /**
         * A device as model.device (and model-check's --device) spell it: cpu, cuda (device 0) or cuda:N.
         *
         * @throws IllegalArgumentException saying what was expected
         */
        public static OptionalInt device(String text) {
            if (text.equals("cpu")) {
                return OptionalInt.empty();
            }
            if (text.equals("cuda")) {
                return OptionalInt.of(0);
            }
            if (text.matches("cuda:[0-9]{1,3}")) {
                return OptionalInt.of(Integer.parseInt(text.substring("cuda:".length())));
            }
            throw new IllegalArgumentException("expected cpu, cuda or cuda:N (N a CUDA device number), got '" + text
                    + "'");
        }
    }

    public record Pool(int workers, int maxBatchRows, int maxBatchTokens, Duration maxWait, int queueLimit) {}

    /**
     * @param checkpointEvery the least wall-clock time between two checkpoints of the journal (a portable copy
     *                        written after a round; zero: after every round)
     */
    public record Persistence(int snapshotEvery, Duration checkpointEvery) {}

    /** Rates of faults injected on purpose (section {@code faults}); all zero by default. */
    public record Faults(double clientDropRate, double clientCrashRate, double clientDelayRate,
                         Duration clientDelayMean, double workerCrashRate, double scoreCorruptionRate) {
        public static final Faults NONE = new Faults(0, 0, 0, Duration.ofSeconds(2), 0, 0);

        public boolean any() {
            return clientDropRate > 0 || clientCrashRate > 0 || clientDelayRate > 0 || workerCrashRate > 0
                    || scoreCorruptionRate > 0;
        }
    }
}
