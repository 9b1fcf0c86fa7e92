package dev.fedbpt.engine.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A small balanced sentiment dataset written for this project (every sentence is original, none is taken from a
 * public corpus), so that the engine, examples and tests can run without downloading anything. 240 training and 120
 * test sentences, label 0 negative / 1 positive, some deliberately indirect (negations, mixed wording, understatement).
 * Pose it with the shipped task file sample-sentiment.conf.
 */
public final class SampleData {
    public static final String NAME = "sample-sentiment";
    private static final String TRAIN = "sample/sentiment-train.tsv";
    private static final String TEST = "sample/sentiment-test.tsv";

    private SampleData() {
    }

    public static Dataset train() {
        return load(TRAIN);
    }

    public static Dataset test() {
        return load(TEST);
    }

    private static Dataset load(String resource) {
        String source = "classpath:dev/fedbpt/engine/data/" + resource;
        InputStream stream = SampleData.class.getResourceAsStream(resource);
        if (stream == null) {
            throw new IllegalStateException("bundled resource missing: " + source);
        }
        try (Reader in = new InputStreamReader(stream, StandardCharsets.UTF_8)) {
            return DatasetReaders.labelTsv(in, source, NAME, DatasetReaders.SENTIMENT_LABELS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source, e);
        }
    }
}
