package dev.fedbpt.actors;

import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.TaskDefinition;
import dev.fedbpt.engine.method.MethodNeeds;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import dev.fedbpt.inference.DeviceUnavailableException;
import dev.fedbpt.inference.HeadSpec;
import dev.fedbpt.inference.ModelLoadException;
import dev.fedbpt.inference.ModelOptions;
import dev.fedbpt.inference.ModelSource;
import dev.fedbpt.inference.ModelTokenizer;
import dev.fedbpt.inference.Pooling;
import dev.fedbpt.inference.PromptModel;
import dev.fedbpt.inference.PromptSpec;
import dev.fedbpt.inference.PromptTokenizer;
import dev.fedbpt.inference.ScoringModel;
import dev.fedbpt.inference.SyntheticModel;
import dev.fedbpt.whitebox.WhiteBoxModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Opens the model an experiment's configuration names, with the head its task needs, or its tokenizer alone. */
public final class ConfiguredModels implements ModelFactory {
    /** Vocabulary of the synthetic stand-in: BERT's size, so token statistics look like the real thing. */
    static final int SYNTHETIC_VOCABULARY = 30522;

    @Override
    public ScoringModel load(ExperimentConfig config) {
        ExperimentConfig.Model model = config.model();
        if (model.backend() == ExperimentConfig.Backend.SYNTHETIC) {
            return synthetic(config);
        }
        if (model.backend() == ExperimentConfig.Backend.PYTORCH) {
            try {
                return WhiteBoxModel.load(source(model), head(config), WhiteBoxModel.Precision.FLOAT32,
                        whiteBoxReserved(config));
            } catch (ModelLoadException e) {
                throw new ConfigError("fedbpt.model.onnx", e.getMessage());
            }
        }
        return loadOnnx(config, calibrationOf(config));
    }

    /** Every worker's model; an int8 model's calibration rows are read and drawn once for all of them. */
    @Override
    public List<ScoringModel> loadWorkers(ExperimentConfig config) {
        if (config.model().backend() != ExperimentConfig.Backend.ONNX) {
            return ModelFactory.super.loadWorkers(config);
        }
        ModelOptions.Int8 calibration = calibrationOf(config);
        return ModelFactory.loadEach(config.pool().workers(), () -> loadOnnx(config, calibration));
    }

    /** The calibration of {@code config}'s int8 model from its training data; null in fp32. */
    private ModelOptions.Int8 calibrationOf(ExperimentConfig config) {
        if (config.model().precision() != ExperimentConfig.Precision.INT8) {
            return null;
        }
        try (ModelTokenizer tokenizer = tokenizer(config)) {
            return calibration(ExperimentData.prepare(config, tokenizer), config);
        }
    }

    /**
     * How an int8 model of {@code config} calibrates: on {@link ExperimentData#calibrationRows} of its training
     * rows, its prompts' z drawn from a stream of the experiment seed of their own.
     */
    public static ModelOptions.Int8 calibration(ExperimentData data, ExperimentConfig config) {
        long seed = config.experiment().seed();
        long promptSeed = Rng.of(seed, Purpose.INT8_CALIBRATION, 1).nextLong();
        return new ModelOptions.Int8(data.calibrationRows(seed), promptSeed);
    }

    /**
     * The onnx backend's model for {@code config}, its linear layers in int8 calibrated as {@code int8} says
     * ({@link ModelOptions.Int8}; null: fp32).
     */
    public PromptModel loadOnnx(ExperimentConfig config, ModelOptions.Int8 int8) {
        try {
            return PromptModel.load(source(config.model()), prompt(config), head(config),
                    options(config.model()).withInt8(int8));
        } catch (DeviceUnavailableException e) {
            throw refusedDevice(e);
        } catch (ModelLoadException e) {
            throw new ConfigError("fedbpt.model.onnx", e.getMessage());
        }
    }

    private static HeadSpec head(ExperimentConfig config) {
        ExperimentConfig.Model model = config.model();
        TaskDefinition task = config.task();
        return switch (model.head()) {
            case SIMILARITY -> new HeadSpec.Similarity(task.labelDescriptions(), model.temperature(),
                    Pooling.valueOf(model.pooling().name()), model.poolTokenPrompt());
            case MASKED_LM -> new HeadSpec.MaskedLm(task.labelWords());
        };
    }

    @Override
    public void check(ExperimentConfig config) {
        try {
            PromptModel.checkDevice(options(config.model()));
        } catch (DeviceUnavailableException e) {
            throw refusedDevice(e);
        }
    }

    private static ConfigError refusedDevice(DeviceUnavailableException e) {
        return new ConfigError("fedbpt.model.device", e.getMessage());
    }

    private static ModelOptions options(ExperimentConfig.Model model) {
        return ModelOptions.defaults().withIntraOpThreads(model.intraOpThreads()).withCudaDevice(model.cudaDevice());
    }

    /** The synthetic model is cheap, so it is its own tokenizer; the real one's is loaded without a session. */
    @Override
    public ModelTokenizer tokenizer(ExperimentConfig config) {
        if (config.model().backend() == ExperimentConfig.Backend.SYNTHETIC) {
            return synthetic(config);
        }
        try {
            if (config.model().backend() == ExperimentConfig.Backend.PYTORCH) {
                return WhiteBoxModel.tokenizer(source(config.model()), whiteBoxReserved(config));
            }
            return PromptTokenizer.load(source(config.model()), prompt(config));
        } catch (ModelLoadException e) {
            throw new ConfigError("fedbpt.model.onnx", e.getMessage());
        }
    }

    /**
     * Positions the white-box backend keeps free of row tokens: the longest prompt any method may put before them
     * (a soft prompt's vectors, or a prefix, which shifts the rows' position ids).
     */
    private static int whiteBoxReserved(ExperimentConfig config) {
        return Math.max(config.model().promptLength(), needs(config).whiteBoxPromptPositions());
    }

    private static SyntheticModel synthetic(ExperimentConfig config) {
        return new SyntheticModel(SYNTHETIC_VOCABULARY, config.task().numClasses(),
                promptDimension(config), config.model().projectionSeed());
    }

    private static ModelSource source(ExperimentConfig.Model model) {
        if (model.onnx().isEmpty()) {
            try {
                return ModelSource.bundled(model.bundled());
            } catch (IllegalArgumentException e) {
                throw new ConfigError("fedbpt.model.bundled", e.getMessage());
            }
        }
        return new ModelSource(existing(model.onnx(), "fedbpt.model.onnx"),
                existing(model.tokenizer(), "fedbpt.model.tokenizer"));
    }

    private static PromptSpec prompt(ExperimentConfig config) {
        PromptSpec.Injection injection = switch (config.model().promptInjection()) {
            case PREPEND -> PromptSpec.Injection.PREPEND;
            case ADD_AFTER_LAYERNORM -> PromptSpec.Injection.ADD_AFTER_LAYERNORM;
        };
        return new PromptSpec(config.model().promptLength(), promptDimension(config),
                config.model().projectionSeed(), injection);
    }

    private static int promptDimension(ExperimentConfig config) {
        return needs(config).projectionDimension();
    }

    private static MethodNeeds needs(ExperimentConfig config) {
        return Methods.needs(config.experiment().method(), config.settings());
    }

    private static Path existing(String file, String key) {
        Path path = Path.of(file);
        if (!Files.isRegularFile(path)) {
            throw new ConfigError(key, "file " + path.toAbsolutePath() + " does not exist");
        }
        return path;
    }
}
