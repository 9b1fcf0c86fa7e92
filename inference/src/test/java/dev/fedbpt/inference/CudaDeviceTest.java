package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Asking for a CUDA device where ONNX Runtime has none says so and how to get one, rather than running on the CPU. */
class CudaDeviceTest {
    @TempDir
    Path dir;

    @Test
    void theCpuBuildRefusesACudaDeviceSayingHowToBuildForOne() throws Exception {
        Assumptions.assumeTrue(OnnxSession.class.getResource(
                        "/ai/onnxruntime/native/linux-x64/libonnxruntime_providers_cuda.so") == null,
                "this build carries ONNX Runtime's CUDA provider (the gpu profile)");
        Path onnx = TinyModels.write(dir, TinyModels.Variant.MASKED_LM, 7);
        ModelSource source = new ModelSource(onnx, TinyModels.writeTokenizer(dir));
        DeviceUnavailableException refused = assertThrows(DeviceUnavailableException.class,
                () -> PromptModel.load(source, new PromptSpec(3, 6, 11L),
                        new HeadSpec.MaskedLm(List.of("bad", "great")),
                        ModelOptions.defaults().withCudaDevice(OptionalInt.of(0))));
        assertTrue(refused.getMessage().contains("CUDA device 0"), refused.getMessage());
        assertTrue(refused.getMessage().contains("-Pgpu"), refused.getMessage());
        DeviceUnavailableException early = assertThrows(DeviceUnavailableException.class,
                () -> PromptModel.checkDevice(ModelOptions.defaults().withCudaDevice(OptionalInt.of(1))),
                "told without loading a model");
        assertTrue(early.getMessage().contains("CUDA device 1"), early.getMessage());
    }
}
