package dev.fedbpt.inference;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares DJL before its first use: offline mode (no downloads) and a writable cache directory. DJL reads
 * {@code DJL_CACHE_DIR} / {@code ENGINE_CACHE_DIR} from the environment or from system properties of the same name;
 * the HuggingFace tokenizer extracts its native library there. If neither is set, both system properties are pointed
 * at {@code <java.io.tmpdir>/fedbpt-djl-cache} (kept between runs so the native library is extracted once).
 */
public final class DjlEnvironment {
    private static final Logger LOG = LoggerFactory.getLogger(DjlEnvironment.class);
    private static volatile boolean prepared;

    private DjlEnvironment() {
    }

    public static synchronized void prepare() {
        if (prepared) return;
        if (System.getProperty("ai.djl.offline") == null) System.setProperty("ai.djl.offline", "true");
        if (unset("DJL_CACHE_DIR")) {
            Path dir = Path.of(System.getProperty("java.io.tmpdir"), "fedbpt-djl-cache");
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                LOG.warn("cannot create DJL cache dir {}: {}", dir, e.toString());
            }
            System.setProperty("DJL_CACHE_DIR", dir.toString());
            if (unset("ENGINE_CACHE_DIR")) System.setProperty("ENGINE_CACHE_DIR", dir.toString());
            LOG.debug("DJL cache dir set to {}", dir);
        }
        prepared = true;
    }

    private static boolean unset(String key) {
        String env = System.getenv(key);
        return (env == null || env.isBlank()) && System.getProperty(key) == null;
    }
}
