package dev.fedbpt.inference.convert;

import ai.onnx.proto.OnnxMl.ModelProto;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where converted models live between runs: {@code <root>/<id>/model.onnx}, {@code tokenizer.json} and
 * {@code manifest.properties} (converter version, source jar, SHA-256 and size of both files). The root is the
 * system property {@value #PROPERTY}, else the environment variable {@value #ENV}, else
 * {@code ~/.cache/fedbpt/models}.
 *
 * <p>A model is converted when its folder has no manifest, a manifest of another converter version, or files of
 * other sizes; {@link #verified} also checks the SHA-256 of the bytes a caller read, and converts again once if they
 * differ (a damaged cache rebuilds itself). Files are written under temporary names and moved into place, the
 * manifest last, under a lock file, so a conversion killed halfway leaves nothing that passes for a model, and two
 * processes never convert the same model at once.
 */
public final class ModelCache {
    public static final String PROPERTY = "fedbpt.model-cache";
    public static final String ENV = "FEDBPT_MODEL_CACHE";
    static final String MODEL = "model.onnx";
    static final String TOKENIZER = "tokenizer.json";
    static final String MANIFEST = "manifest.properties";
    private static final Logger LOG = LoggerFactory.getLogger(ModelCache.class);
    private static final Map<String, Object> JVM_LOCKS = new ConcurrentHashMap<>();

    /** A converted model's files and the digests its manifest records. */
    public record Entry(Path model, Path tokenizer, String modelSha256, String tokenizerSha256) {
    }

    private ModelCache() {
    }

    /** The cache root this process uses. */
    public static Path root() {
        String dir = System.getProperty(PROPERTY);
        if (dir == null || dir.isBlank()) dir = System.getenv(ENV);
        if (dir == null || dir.isBlank()) return Path.of(System.getProperty("user.home"), ".cache", "fedbpt", "models");
        return Path.of(dir);
    }

    /** The converted files of {@code spec} under {@code root}, converting first if they are missing or stale. */
    public static Entry ensure(ConvertedModel spec, Path root) throws ConversionException {
        return locked(spec, root, () -> {
            Entry e = current(spec, root);
            return e != null ? e : convert(spec, root);
        });
    }

    /**
     * The bytes of {@code file} of {@code spec}'s entry, read and checked against the manifest's SHA-256; a
     * mismatch converts the model again, once, and reads the new file.
     *
     * @param tokenizer true for tokenizer.json, false for model.onnx
     */
    public static byte[] verified(ConvertedModel spec, Path root, boolean tokenizer) throws ConversionException {
        Entry e = ensure(spec, root);
        Path file = tokenizer ? e.tokenizer() : e.model();
        String expected = tokenizer ? e.tokenizerSha256() : e.modelSha256();
        byte[] bytes = read(file);
        String actual = sha256(bytes);
        if (actual.equals(expected)) return bytes;
        LOG.warn("{} is damaged (SHA-256 {}, its manifest says {}): converting {} again", file, actual, expected,
                spec.id());
        e = locked(spec, root, () -> convert(spec, root));
        file = tokenizer ? e.tokenizer() : e.model();
        bytes = read(file);
        expected = tokenizer ? e.tokenizerSha256() : e.modelSha256();
        if (!sha256(bytes).equals(expected)) {
            throw new ConversionException(file + " does not match its manifest right after conversion: is "
                    + root + " on a disk that loses writes?");
        }
        return bytes;
    }

    /** The entry as the manifest describes it, or null when it must be converted. */
    static Entry current(ConvertedModel spec, Path root) {
        Path dir = root.resolve(spec.id());
        Path manifest = dir.resolve(MANIFEST);
        if (!Files.isRegularFile(manifest)) return null;
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(manifest)) {
            p.load(in);
            if (!String.valueOf(ConvertedModel.CONVERTER_VERSION).equals(p.getProperty("converter"))) return null;
            Path model = dir.resolve(MODEL);
            Path tokenizer = dir.resolve(TOKENIZER);
            if (!Files.isRegularFile(model) || !Files.isRegularFile(tokenizer)
                    || Files.size(model) != Long.parseLong(p.getProperty("model.bytes", "-1"))
                    || Files.size(tokenizer) != Long.parseLong(p.getProperty("tokenizer.bytes", "-1"))) {
                return null;
            }
            return new Entry(model, tokenizer, p.getProperty("model.sha256"), p.getProperty("tokenizer.sha256"));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static Entry convert(ConvertedModel spec, Path root) throws ConversionException {
        Path dir = root.resolve(spec.id());
        long t0 = System.nanoTime();
        LOG.info("converting {} from {} into {} (once; the cache is kept for later runs, {} or -D{} moves it)",
                spec.id(), spec.artifact(), dir, ENV, PROPERTY);
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(dir.resolve(MANIFEST));
        } catch (IOException e) {
            throw new ConversionException("cannot write the model cache " + dir + " (" + e + "); set " + ENV
                    + " to a writable folder", e);
        }
        TfHubBertJar jar = TfHubBertJar.read(spec.resource(), spec.artifact(),
                n -> LOG.info("{}: read {} MB of the weights", spec.id(), n >> 20));
        BertMlmGraph.Shape shape = BertMlmGraph.shape(jar.variables(), spec.heads());
        if (shape.vocab() != jar.vocabulary().size()) {
            throw new ConversionException(spec.artifact() + ": the vocabulary has " + jar.vocabulary().size()
                    + " tokens, the word embeddings " + shape.vocab() + " rows");
        }
        ModelProto model = BertMlmGraph.build(jar.variables(), shape);
        LOG.info("{}: {} layers, hidden {}, {} heads, vocabulary {}; writing {}", spec.id(), shape.layers(),
                shape.hidden(), shape.heads(), shape.vocab(), dir.resolve(MODEL));
        byte[] tokenizerJson = WordPieceTokenizerJson.write(jar.vocabulary(), spec.lowercase())
                .getBytes(StandardCharsets.UTF_8);
        try {
            String modelSha = write(dir.resolve(MODEL), model::writeTo);
            String tokenizerSha = write(dir.resolve(TOKENIZER), out -> out.write(tokenizerJson));
            Properties p = new Properties();
            p.setProperty("converter", String.valueOf(ConvertedModel.CONVERTER_VERSION));
            p.setProperty("source", spec.artifact() + "!/" + spec.resource());
            p.setProperty("model.sha256", modelSha);
            p.setProperty("model.bytes", String.valueOf(Files.size(dir.resolve(MODEL))));
            p.setProperty("tokenizer.sha256", tokenizerSha);
            p.setProperty("tokenizer.bytes", String.valueOf(tokenizerJson.length));
            write(dir.resolve(MANIFEST), out -> p.store(out, "fedbpt model cache entry; delete the folder to convert "
                    + "again"));
            LOG.info("{}: converted in {} s, model.onnx SHA-256 {}", spec.id(), (System.nanoTime() - t0) / 1_000_000_000,
                    modelSha);
            return new Entry(dir.resolve(MODEL), dir.resolve(TOKENIZER), modelSha, tokenizerSha);
        } catch (IOException | UncheckedIOException e) {
            throw new ConversionException("cannot write the model cache " + dir + " (" + e + "); set " + ENV
                    + " to a writable folder with about 0.5 GB free", e);
        }
    }

    private interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes {@code file} under a temporary name, then moves it into place; its SHA-256. */
    private static String write(Path file, Body body) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".part-" + ProcessHandle.current().pid());
        MessageDigest digest = newDigest();
        try (OutputStream out = new DigestOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20),
                digest)) {
            body.writeTo(out);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private interface Work {
        Entry run() throws ConversionException;
    }

    /** Runs {@code work} holding this JVM's lock and the cache's lock file for {@code spec}. */
    private static Entry locked(ConvertedModel spec, Path root, Work work) throws ConversionException {
        synchronized (JVM_LOCKS.computeIfAbsent(spec.id(), k -> new Object())) {
            Path lockFile = root.resolve(spec.id() + ".lock");
            try {
                Files.createDirectories(root);
            } catch (IOException e) {
                throw new ConversionException("cannot create the model cache " + root + " (" + e + "); set " + ENV
                        + " to a writable folder", e);
            }
            try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = ch.lock()) {
                return work.run();
            } catch (IOException e) {
                throw new ConversionException("cannot lock " + lockFile + ": " + e, e);
            }
        }
    }

    private static byte[] read(Path file) throws ConversionException {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ConversionException("cannot read " + file + ": " + e, e);
        }
    }

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(newDigest().digest(bytes));
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
