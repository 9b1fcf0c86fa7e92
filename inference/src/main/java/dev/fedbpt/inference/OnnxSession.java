package dev.fedbpt.inference;

import ai.djl.Device;
import ai.djl.MalformedModelException;
import ai.djl.Model;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.training.ParameterStore;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtProvider;
import ai.onnxruntime.OrtSession;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.Buffer;
import java.util.HashMap;
import java.util.Map;

/**
 * One ONNX Runtime session behind DJL's OnnxRuntime engine, loaded from bytes in memory. {@link #forward} runs the
 * block directly (no translator) on named NDArrays; it is used by both the module's hot path and the bare benchmark.
 * Not thread-safe: callers serialise.
 */
final class OnnxSession implements AutoCloseable {
    private final Model model;
    private final Block block;
    private final ParameterStore parameterStore;

    private OnnxSession(Model model) {
        this.model = model;
        this.block = model.getBlock();
        this.parameterStore = new ParameterStore(model.getNDManager(), false);
    }

    static OnnxSession load(byte[] onnx, String name, ModelOptions options) throws ModelLoadException {
        DjlEnvironment.prepare();
        Model model;
        try {
            model = Model.newInstance(name, Device.cpu(), "OnnxRuntime");
        } catch (RuntimeException e) {
            throw new ModelLoadException("cannot start DJL's OnnxRuntime engine: " + e.getMessage(), e);
        }
        Map<String, Object> opts = new HashMap<>();
        try {
            OrtSession.SessionOptions so = new OrtSession.SessionOptions();
            if (options.intraOpThreads() > 0) so.setIntraOpNumThreads(options.intraOpThreads());
            so.setInterOpNumThreads(1);
            so.setSessionLogLevel(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR);
            so.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            // Idle ONNX Runtime workers otherwise spin after each run and steal the cores from the Java-side work
            // (prompt expansion, embedding lookup) that comes between forwards.
            so.addConfigEntry("session.intra_op.allow_spinning", options.threadSpinning() ? "1" : "0");
            if (options.cudaDevice().isPresent()) {
                addCuda(so, options.cudaDevice().getAsInt());
            }
            opts.put("sessionOptions", so); // DJL's OrtModel takes it as is and closes it with the model
            model.load(new ByteArrayInputStream(onnx), opts);
        } catch (DeviceUnavailableException e) {
            model.close();
            throw e;
        } catch (IOException | MalformedModelException | OrtException | RuntimeException e) {
            model.close();
            Throwable root = e;
            while (root.getCause() != null) root = root.getCause();
            throw new ModelLoadException("ONNX Runtime refused " + name + ": " + root.getMessage(), e);
        }
        return new OnnxSession(model);
    }

    /**
     * Throws what {@link #load} would on CUDA device {@code device} when this build of ONNX Runtime has no CUDA
     * provider at all, without loading a model (whether the device itself exists only a session can tell).
     */
    static void checkCuda(int device) throws DeviceUnavailableException {
        DjlEnvironment.prepare();
        if (!OrtEnvironment.getAvailableProviders().contains(OrtProvider.CUDA)) {
            throw new DeviceUnavailableException(cannotRunOn(device, "this ONNX Runtime has no CUDA provider"), null);
        }
    }

    private static String cannotRunOn(int device, String why) {
        return "ONNX Runtime cannot run on CUDA device " + device + ": " + why + ". The default build carries ONNX "
                + "Runtime's CPU library; build with the gpu profile (mvn -B -DskipTests -Pgpu package, "
                + "docs/MANUAL.md \"GPU\") on a machine with CUDA 12 and cuDNN 9";
    }

    /**
     * Runs the graph on CUDA device {@code device}. The inputs stay in host memory (ONNX Runtime copies them over
     * each run), so nothing else changes; the CPU build of ONNX Runtime, fedbpt's default, has no CUDA provider.
     */
    private static void addCuda(OrtSession.SessionOptions so, int device) throws DeviceUnavailableException {
        try {
            so.addCUDA(device);
        } catch (OrtException | RuntimeException | UnsatisfiedLinkError e) {
            throw new DeviceUnavailableException(cannotRunOn(device, e.getMessage()), e);
        }
    }

    /** A new manager for one call's arrays; close it after reading the outputs. */
    NDManager newCallManager() {
        return model.getNDManager().newSubManager();
    }

    /** Wraps a direct native-order buffer (no copy for direct buffers) as a named NDArray. */
    static NDArray wrap(NDManager manager, Buffer data, Shape shape, DataType type, String name) {
        NDArray array = manager.create(data, shape, type);
        array.setName(name);
        return array;
    }

    /** Runs the graph. Outputs are attached to the inputs' manager. */
    NDList forward(NDList inputs) {
        return block.forward(parameterStore, inputs, false);
    }

    @Override
    public void close() {
        model.close();
    }
}
