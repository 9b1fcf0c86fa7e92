package dev.fedbpt.engine.dlsec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code fedbpt bench dls-ec}'s measurement, on the small test matrix: it runs and reports what it measured. */
class DlsEcTimingsTest {
    @Test
    void measuresTheSearchAndTheServerOnARoundShapedLikeARealOne() {
        DlsEcTimings.Result r = DlsEcTimings.measure(TestModels.embeddings(3), TestModels.VOCAB, 6, 3, 0.2,
                "absolute", 4, 5, 2, 9);
        assertEquals(TestModels.VOCABULARY, r.vocabulary());
        assertEquals(TestModels.HIDDEN, r.hidden());
        assertTrue(r.nearestMs() > 0 && r.aggregateMs() > 0 && r.indexMs() > 0, r.toString());
        assertTrue(r.screenedPositions() >= 0 && r.screenedPositions() <= 6, r.toString());
        assertTrue(r.meanTokenNorm() > 0 && r.meanResidualNorm() > 0, r.toString());
    }
}
