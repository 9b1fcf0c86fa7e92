package dev.fedbpt.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The weights and constants of the bundled encoders, as another backend reads them from the ONNX file. */
class EncoderWeightsTest {

    @Test
    void readsAllMiniLmShapesAndConstants() throws Exception {
        EncoderWeights w = EncoderWeights.read(ModelSource.bundled());
        assertEquals(6, w.layerCount());
        assertEquals(384, w.hiddenSize());
        assertEquals(12, w.heads(), "head size 32 from the attention scale sqrt(32)");
        assertEquals(1536, w.intermediateSize());
        assertEquals(30522, w.vocabularySize());
        assertEquals(512, w.maxPositions());
        assertEquals(1e-12f, w.layerNormEps(), 1e-18f);
        assertTrue(w.maskValue() < -1e4f, "padding is masked by a large negative additive value: " + w.maskValue());
        EncoderWeights.Layer l = w.layers().get(5);
        assertEquals(384 * 384, l.query().weight().length);
        assertEquals(1536, l.intermediate().out());
        assertEquals(384, l.output().out());
    }

    @Test
    void readsBgeSmallTwelveLayers() throws Exception {
        EncoderWeights w = EncoderWeights.read(ModelSource.bundled("bge-small-en-v1.5"));
        assertEquals(12, w.layerCount());
        assertEquals(12, w.heads());
    }
}
