package dev.fedbpt.actors;

import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.ColumnReader;
import dev.fedbpt.engine.data.Dataset;
import dev.fedbpt.engine.data.DatasetReaders;
import dev.fedbpt.engine.data.Example;
import dev.fedbpt.engine.data.FewShot;
import dev.fedbpt.engine.data.InContextExamples;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Partitioner;
import dev.fedbpt.engine.data.Shuffle;
import dev.fedbpt.engine.data.TaskDefinition;
import dev.fedbpt.engine.data.TestSample;
import dev.fedbpt.engine.method.HeldApart;
import dev.fedbpt.engine.method.MethodNeeds;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.method.Participation;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import dev.fedbpt.inference.ModelTokenizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * An experiment's data, ready for the actors: the few-shot training set split over the clients and the test set,
 * all tokenised once; for a personalised method also each client's own test rows ({@code clientTests}, else null)
 * and who is held out of the federated rounds, and where the method asks for them
 * ({@link MethodNeeds#heldApartPerClass()}) each client's rows held apart from the federated training data
 * ({@code clientHeldApart}, else null). Every draw comes from the experiment seed, so the same configuration gives
 * the same partitions on every start, resume included.
 */
public record ExperimentData(TaskDefinition task, List<LocalData> clients, Evaluator.TestSet testSet,
                             List<LocalData> clientTests, Participation participation,
                             List<HeldApart> clientHeldApart) {

    /** Clients without held-apart rows. */
    public ExperimentData(TaskDefinition task, List<LocalData> clients, Evaluator.TestSet testSet,
                          List<LocalData> clientTests, Participation participation) {
        this(task, clients, testSet, clientTests, participation, null);
    }

    /** A data location with this prefix names a resource shipped with fedbpt rather than a file. */
    private static final String RESOURCE = "classpath:";

    public ExperimentData(TaskDefinition task, List<LocalData> clients, Evaluator.TestSet testSet) {
        this(task, clients, testSet, null, Participation.everyone(clients.size()));
    }

    /** Training rows an int8 model calibrates on ({@code model.precision}): at most this many. */
    public static final int CALIBRATION_ROWS = 64;

    /**
     * {@link #CALIBRATION_ROWS} of the clients' training rows (all, if fewer), drawn by {@code seed} from the rows of
     * every client in turn; never test rows. The same rows on every start and every worker.
     */
    public List<int[]> calibrationRows(long seed) {
        List<int[]> pooled = new ArrayList<>();
        for (LocalData client : clients) pooled.addAll(client.tokenIds());
        RandomGenerator random = Rng.of(seed, Purpose.INT8_CALIBRATION, 0);
        for (int i = pooled.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int[] t = pooled.get(i);
            pooled.set(i, pooled.get(j));
            pooled.set(j, t);
        }
        return List.copyOf(pooled.subList(0, Math.min(CALIBRATION_ROWS, pooled.size())));
    }

    public static ExperimentData prepare(ExperimentConfig config, ModelTokenizer tokenizer) {
        ExperimentConfig.Data data = config.data();
        ModelTokenizer model = tokenizer.cappedAt(data.maxRowTokens());
        if (data.split() == ExperimentConfig.Split.DOMAINS) {
            return prepareDomains(config, model);
        }
        TaskDefinition task = config.task();
        Dataset train = read(config, data.train(), task, "fedbpt.data.train");
        long seed = config.experiment().seed();
        boolean onDev = data.evalSplit() == ExperimentConfig.EvalSplit.DEV;
        if (onDev && data.shotsPerClass() == 0) {
            throw new ConfigError("fedbpt.data.eval-split", "dev is drawn from the train file beside the few-shot "
                    + "set, so it needs data.shots-per-class > 0 (0 means the whole train file is training data)");
        }
        FewShot.TrainDev drawn = data.shotsPerClass() == 0 ? new FewShot.TrainDev(train, train)
                : FewShot.trainDev(train, data.shotsPerClass(), onDev ? data.devPerClass() : 0,
                        Rng.of(seed, Purpose.FEW_SHOT));
        Dataset fewShot = drawn.train();
        Dataset evaluation = onDev ? drawn.dev() : read(config, data.test(), task, "fedbpt.data.test");
        // A centralised reference: one client holding all the training data.
        int clients = config.experiment().traits().singleClient() ? 1 : config.federation().clients();
        if (fewShot.size() < clients) {
            throw new ConfigError("fedbpt.federation.clients", clients + " clients but only " + fewShot.size()
                    + " training examples: every client needs at least one");
        }
        // FedPepTAO's split draws its client shares and class priors once, for the training rows and (below) for a
        // personalised method's test rows alike.
        Partitioner.DirichletLabel dirichletLabel = data.split() != ExperimentConfig.Split.DIRICHLET_LABEL ? null
                : Partitioner.DirichletLabel.draw(clients, data.dirichletAlpha(), task.numClasses(),
                        Rng.of(seed, Purpose.PARTITION));
        List<List<Example>> parts = switch (config.data().split()) {
            case IID -> Partitioner.iid(fewShot.examples(), clients, Rng.of(seed, Purpose.PARTITION));
            case STRATIFIED -> Partitioner.stratified(fewShot.examples(), clients, task.numClasses(),
                    Rng.of(seed, Purpose.PARTITION));
            case DIRICHLET -> Partitioner.dirichlet(fewShot.examples(), clients, config.data().dirichletAlpha(),
                    task.numClasses(), Rng.of(seed, Purpose.PARTITION));
            case DIRICHLET_LABEL -> dirichletLabelSplit(dirichletLabel, fewShot.examples(), "few-shot training set",
                    "data.shots-per-class");
            case DOMAINS -> throw new IllegalStateException("domains are prepared by prepareDomains");
        };
        boolean useTemplate = config.model().head() == ExperimentConfig.Head.MASKED_LM;
        Function<Example, int[]> encodeTrain = example -> encode(example, task, useTemplate, model);
        List<LocalData> localData = new ArrayList<>(clients);
        for (List<Example> part : parts) {
            localData.add(tokenise(part, task, encodeTrain));
        }
        List<Example> testExamples = capped(evaluation.examples(), config, 0);
        Function<Example, int[]> encodeTest = encodeTrain;
        if (config.experiment().traits().demonstrations()) {
            List<Example> demonstrations = InContextExamples.select(fewShot, data.iclExamples(),
                    Rng.of(seed, Purpose.FEW_SHOT, 1));
            // Encoded once: contexts.get(n - 1) holds the first n demonstrations, the same before every input.
            List<int[]> contexts = new ArrayList<>();
            for (int n = 1; n <= demonstrations.size(); n++) {
                contexts.add(model.encode(InContextExamples.context(demonstrations, task, n)));
            }
            encodeTest = example -> withDemonstrations(encodeTrain.apply(example), contexts, model.maxRowTokens());
        }
        LocalData testData = tokenise(testExamples, task, encodeTest);
        Evaluator.TestSet testSet = Evaluator.TestSet.of(testData.tokenIds(), testData.labels(), task);
        if (!config.experiment().traits().personalised()) {
            return new ExperimentData(task, List.copyOf(localData), testSet);
        }
        // A personalised method scores each client on test rows with its own label skew: FedPepTAO's split deals them
        // as its reference code deals its dev shards, with the training split's shares and priors, its stream going on.
        List<List<Example>> testParts = dirichletLabel != null
                ? dirichletLabelSplit(dirichletLabel, testExamples, "clients' test rows",
                        onDev ? "data.dev-per-class" : "data.test-limit")
                : Partitioner.likeTraining(testExamples, parts, task.numClasses(), Rng.of(seed, Purpose.PARTITION, 1));
        List<LocalData> clientTests = new ArrayList<>();
        for (List<Example> part : testParts) {
            clientTests.add(tokenise(part, task, encodeTest));
        }
        int[] heldOut = IntStream.range(clients - config.federation().heldOutClients(), clients).toArray();
        List<HeldApart> heldApart = null;
        MethodNeeds needs = heldApartNeeds(config);
        int perClass = needs.heldApartPerClass();
        if (perClass > 0) {
            // Stratified per client, not dealt like its training label skew (Partitioner.likeTraining): the paper
            // gives every client 16 post-tuning examples of each class (and a dev set as large).
            List<Example> taken = new ArrayList<>(fewShot.examples());
            if (onDev) taken.addAll(drawn.dev().examples());
            List<Example> pool = outside(train.examples(), taken);
            heldApart = heldApart(pool, clients, needs, task, encodeTrain, Rng.of(seed, Purpose.HELD_APART_ROWS, 0),
                    "the train file's rows outside the few-shot set" + (onDev ? " and the dev evaluation set" : ""));
        }
        return new ExperimentData(task, List.copyOf(localData), testSet, List.copyOf(clientTests),
                new Participation(clients, heldOut,
                config.experiment().traits().personalisationRound(config.experiment().rounds())), heldApart);
    }

    /** The held-apart rows per class a personalised method asks each client for (0: none), and their key. */
    private static MethodNeeds heldApartNeeds(ExperimentConfig config) {
        return config.experiment().traits().personalised()
                ? Methods.needs(config.experiment().method(), config.settings()) : new MethodNeeds(0, 1, 0);
    }

    /** {@code examples} without any equal to one of {@code taken} (a duplicate of a training row is one too). */
    private static List<Example> outside(List<Example> examples, List<Example> taken) {
        Set<Example> excluded = new HashSet<>(taken);
        List<Example> rest = new ArrayList<>();
        for (Example e : examples) {
            if (!excluded.contains(e)) rest.add(e);
        }
        return rest;
    }

    /**
     * Each of {@code clients} gets {@code perClass} post-tuning and {@code perClass} dev rows of every class from
     * {@code pool}, none shared: each class's pool rows are shuffled once by {@code rng} and cut in that order, client
     * 0's post-tuning rows, its dev rows, then client 1's, and so on (each set listed in pool order). A pool too small
     * is a configuration error naming the key.
     */
    private static List<HeldApart> heldApart(List<Example> pool, int clients, MethodNeeds needs, TaskDefinition task,
                                             Function<Example, int[]> encode, RandomGenerator rng, String where) {
        int perClass = needs.heldApartPerClass();
        int numClasses = task.numClasses();
        List<List<Integer>> byClass = new ArrayList<>();
        for (int c = 0; c < numClasses; c++) byClass.add(new ArrayList<>());
        for (int i = 0; i < pool.size(); i++) byClass.get(pool.get(i).label()).add(i);
        int[][] order = new int[numClasses][];
        for (int c = 0; c < numClasses; c++) {
            order[c] = byClass.get(c).stream().mapToInt(Integer::intValue).toArray();
            int needed = 2 * perClass * clients;
            if (order[c].length < needed) {
                throw new ConfigError("fedbpt." + needs.heldApartKey(), "the method's rows held apart from the "
                        + "federated data take " + perClass + " rows and " + perClass + " dev rows of every class for "
                        + "each of " + clients + " client(s) from " + where + ", " + needed + " of class "
                        + task.labelNames().get(c) + ", but there are only " + order[c].length + "; set a smaller "
                        + needs.heldApartKey() + " or fewer data.shots-per-class");
            }
            Shuffle.shuffle(order[c], rng);
        }
        List<HeldApart> result = new ArrayList<>(clients);
        for (int k = 0; k < clients; k++) {
            List<Integer> tune = new ArrayList<>();
            List<Integer> dev = new ArrayList<>();
            for (int c = 0; c < numClasses; c++) {
                int from = 2 * perClass * k;
                for (int i = 0; i < perClass; i++) {
                    tune.add(order[c][from + i]);
                    dev.add(order[c][from + perClass + i]);
                }
            }
            result.add(new HeldApart(tokenise(inPoolOrder(pool, tune), task, encode),
                    tokenise(inPoolOrder(pool, dev), task, encode)));
        }
        return List.copyOf(result);
    }

    private static List<Example> inPoolOrder(List<Example> pool, List<Integer> indices) {
        return indices.stream().sorted().map(pool::get).toList();
    }

    /**
     * FedPepTAO's split of {@code examples}; one it cannot complete (a client whose share rounds to no example, or
     * whose priors want only classes used up) is a configuration error naming the keys that change it.
     */
    private static List<List<Example>> dirichletLabelSplit(Partitioner.DirichletLabel split, List<Example> examples,
                                                           String what, String sizeKey) {
        try {
            return split.split(examples);
        } catch (IllegalArgumentException e) {
            throw new ConfigError("fedbpt.data.split", "dirichlet-label cannot split the " + what + ": "
                    + e.getMessage() + ". Clients are federation.clients, examples " + sizeKey + ", alpha "
                    + "data.dirichlet-alpha; another experiment.seed draws other shares, and another data.split has "
                    + "no such limit");
        }
    }

    /**
     * One client per domain: its few-shot set drawn from its own train file (from (seed, domain index)), its own test
     * rows (data.test-limit caps each domain's); the test set the global prompt is scored on joins them in domain
     * order. A personalised method's personalisation round follows the federated rounds.
     */
    private static ExperimentData prepareDomains(ExperimentConfig config, ModelTokenizer model) {
        ExperimentConfig.Data data = config.data();
        TaskDefinition task = config.task();
        long seed = config.experiment().seed();
        boolean useTemplate = config.model().head() == ExperimentConfig.Head.MASKED_LM;
        Function<Example, int[]> encode = example -> encode(example, task, useTemplate, model);
        List<LocalData> train = new ArrayList<>();
        List<LocalData> tests = new ArrayList<>();
        List<int[]> allRows = new ArrayList<>();
        List<Integer> allLabels = new ArrayList<>();
        MethodNeeds needs = heldApartNeeds(config);
        int perClass = needs.heldApartPerClass();
        List<HeldApart> heldApart = perClass > 0 ? new ArrayList<>() : null;
        for (int d = 0; d < data.domains().size(); d++) {
            String domain = data.domains().get(d);
            Dataset trainFile = read(config, ExperimentConfig.Data.forDomain(data.train(), domain), task,
                    "fedbpt.data.train");
            Dataset fewShot = data.shotsPerClass() == 0 ? trainFile
                    : FewShot.trainDev(trainFile, data.shotsPerClass(), 0, Rng.of(seed, Purpose.FEW_SHOT, 2, d))
                            .train();
            List<Example> testExamples = read(config, ExperimentConfig.Data.forDomain(data.test(), domain), task,
                    "fedbpt.data.test").examples();
            testExamples = capped(testExamples, config, d);
            train.add(tokenise(fewShot.examples(), task, encode));
            if (heldApart != null) {
                // The paper draws them from the domain's dev split, which this copy of FDU-MTL lacks: from its train
                // file's rows outside the client's few-shot set instead.
                heldApart.addAll(heldApart(outside(trainFile.examples(), fewShot.examples()), 1, needs, task,
                        encode, Rng.of(seed, Purpose.HELD_APART_ROWS, 2, d), "domain " + domain
                                + "'s train file outside its few-shot rows"));
            }
            LocalData test = tokenise(testExamples, task, encode);
            tests.add(test);
            allRows.addAll(test.tokenIds());
            for (int label : test.labels()) {
                allLabels.add(label);
            }
        }
        int[] heldOut = data.heldOut().stream().mapToInt(data.domains()::indexOf).toArray();
        int personalisationRound = config.experiment().traits().personalisationRound(config.experiment().rounds());
        return new ExperimentData(task, List.copyOf(train),
                Evaluator.TestSet.of(allRows, allLabels.stream().mapToInt(Integer::intValue).toArray(), task),
                List.copyOf(tests), new Participation(train.size(), heldOut, personalisationRound),
                heldApart == null ? null : List.copyOf(heldApart));
    }

    /** Each client's rows held apart from its training data, or null when the method asks for none. */
    public HeldApart heldApart(int clientId) {
        return clientHeldApart == null ? null : clientHeldApart.get(clientId);
    }

    /** Each client's own test rows, or null when the experiment gives clients none. */
    public LocalData clientTest(int clientId) {
        return clientTests == null ? null : clientTests.get(clientId);
    }

    /**
     * The test examples an evaluation scores: all, or with {@code data.test-limit} a stratified sample drawn by the
     * seed for {@code part} (a domain's index; 0 for the one test file), or the file's first rows where
     * {@code data.test-sample = first}.
     */
    private static List<Example> capped(List<Example> examples, ExperimentConfig config, int part) {
        ExperimentConfig.Data data = config.data();
        if (data.testLimit() == 0 || examples.size() <= data.testLimit()) return examples;
        return switch (data.testSampling()) {
            case FIRST -> examples.subList(0, data.testLimit());
            case STRATIFIED -> TestSample.stratified(examples, data.testLimit(), config.task().numClasses(),
                    Rng.of(config.experiment().seed(), Purpose.TEST_SAMPLE, part));
        };
    }

    /**
     * {@code input} as a pair row with the longest of the {@code contexts} that fits the model as its context
     * ({@link ModelTokenizer#pair}); an input that fits with none is scored alone.
     */
    private static int[] withDemonstrations(int[] input, List<int[]> contexts, int maxRowTokens) {
        for (int n = contexts.size(); n > 0; n--) {
            int[] context = contexts.get(n - 1);
            // A row of exactly the limit may hold a part that encode cut, so only shorter ones count as fitting.
            if (context.length + input.length - 1 < maxRowTokens) {
                return ModelTokenizer.pair(context, input);
            }
        }
        return input;
    }

    private static LocalData tokenise(List<Example> examples, TaskDefinition task, Function<Example, int[]> encode) {
        List<int[]> rows = new ArrayList<>(examples.size());
        int[] labels = new int[examples.size()];
        for (int i = 0; i < examples.size(); i++) {
            rows.add(encode.apply(examples.get(i)));
            labels[i] = examples.get(i).label();
        }
        return new LocalData(List.copyOf(rows), labels, task.numClasses());
    }

    /**
     * One example as a row of token ids: in the task's template when the head reads a [MASK] (a pair's two texts
     * inside it); otherwise the text, or a pair in BERT's layout, [CLS] first [SEP] second [SEP], cut longest first
     * to the model's row length as Hugging Face tokenizers cut pairs.
     */
    static int[] encode(Example example, TaskDefinition task, boolean useTemplate, ModelTokenizer model) {
        if (useTemplate) {
            return model.encode(task.apply(example));
        }
        if (example.inputs().size() == 1) {
            return model.encode(example.inputs().get(0));
        }
        int[] first = model.encode(example.inputs().get(0));
        int[] second = model.encode(example.inputs().get(1));
        int max = model.maxRowTokens();
        // The joined row is first.length + second.length - 1 long (second's [CLS] dropped); drop a text token
        // (never the closing [SEP]) from the longer part until it fits, from the second on a tie (as Hugging Face's
        // longest_first).
        while (first.length + second.length - 1 > max) {
            if (first.length > second.length) {
                first = withoutLastText(first);
            } else {
                second = withoutLastText(second);
            }
        }
        return ModelTokenizer.pair(first, second);
    }

    private static int[] withoutLastText(int[] row) {
        if (row.length <= 2) {
            throw new IllegalStateException("a pair cannot be cut to fit the model's rows");
        }
        int[] cut = Arrays.copyOf(row, row.length - 1);
        cut[cut.length - 1] = row[row.length - 1];
        return cut;
    }

    /** UTF-8 when the whole file decodes as UTF-8, else windows-1252 (FDU-MTL's MR and dvd files, say). */
    private static Reader decodeAuto(Path path) throws IOException {
        byte[] bytes = Files.readAllBytes(path);
        try {
            return new StringReader(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException notUtf8) {
            return new StringReader(new String(bytes, Charset.forName("windows-1252")));
        }
    }

    /**
     * Refuses an experiment whose dataset files are missing, naming the key, before anything is stored: a run folder
     * claimed for a run that could never start would hold a configuration the corrected one differs from.
     */
    public static void checkFiles(ExperimentConfig config) {
        ExperimentConfig.Data data = config.data();
        List<String> domains = data.split() == ExperimentConfig.Split.DOMAINS ? data.domains() : List.of("");
        for (String domain : domains) {
            String train = domain.isEmpty() ? data.train() : ExperimentConfig.Data.forDomain(data.train(), domain);
            String test = domain.isEmpty() ? data.test() : ExperimentConfig.Data.forDomain(data.test(), domain);
            if (!train.startsWith(RESOURCE)) existing(config, train, "fedbpt.data.train");
            boolean onDev = data.evalSplit() == ExperimentConfig.EvalSplit.DEV && domain.isEmpty();
            if (!onDev && !test.startsWith(RESOURCE)) existing(config, test, "fedbpt.data.test");
        }
    }

    /** The dataset file at {@code location} (under data.dir), which must exist. */
    private static Path existing(ExperimentConfig config, String location, String key) {
        Path path = config.data().dir().isEmpty() ? Path.of(location) : Path.of(config.data().dir()).resolve(location);
        if (!Files.isRegularFile(path)) {
            throw new ConfigError(key, "dataset file " + path.toAbsolutePath() + " does not exist"
                    + (config.data().dir().isEmpty() ? "" : " (data.dir = " + config.data().dir() + ")"));
        }
        return path;
    }

    private static Dataset read(ExperimentConfig config, String location, TaskDefinition task, String key) {
        String source = location;
        Reader in;
        if (location.startsWith(RESOURCE)) {
            InputStream stream = ExperimentData.class.getClassLoader()
                    .getResourceAsStream(location.substring(RESOURCE.length()));
            if (stream == null) {
                throw new ConfigError(key, "no such resource shipped with fedbpt: " + location);
            }
            in = new InputStreamReader(stream, StandardCharsets.UTF_8);
        } else {
            Path path = existing(config, location, key);
            source = path.toString();
            try {
                in = config.data().encoding() == ExperimentConfig.Encoding.AUTO ? decodeAuto(path)
                        : Files.newBufferedReader(path, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ConfigError(key, "cannot open " + path + ": " + e.getMessage());
            }
        }
        try (Reader reader = in) {
            return switch (config.data().format()) {
                case "sst2" -> DatasetReaders.sst2(reader, source);
                case "agnews" -> DatasetReaders.agNews(reader, source);
                case "yelp" -> DatasetReaders.yelpPolarity(reader, source);
                case "columns" -> ColumnReader.read(reader, source, task);
                default -> DatasetReaders.labelTsv(reader, source, task.name(), task.labelNames(),
                        config.data().skipEmptyText());
            };
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source, e);
        }
    }
}
