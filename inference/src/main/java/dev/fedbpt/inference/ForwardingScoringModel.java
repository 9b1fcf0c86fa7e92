package dev.fedbpt.inference;

import java.util.List;

/** A model that hands everything to another; benchmarks extend it to watch the batches that pass. */
public abstract class ForwardingScoringModel implements ScoringModel {
    private final ScoringModel delegate;

    protected ForwardingScoringModel(ScoringModel delegate) {
        this.delegate = delegate;
    }

    @Override
    public float[][] score(List<ScoreRow> rows) {
        return delegate.score(rows);
    }

    @Override
    public int[] encode(String text) {
        return delegate.encode(text);
    }

    @Override
    public int maxRowTokens() {
        return delegate.maxRowTokens();
    }

    @Override
    public int vocabularySize() {
        return delegate.vocabularySize();
    }

    @Override
    public int[] specialTokenIds() {
        return delegate.specialTokenIds();
    }

    @Override
    public int numClasses() {
        return delegate.numClasses();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
