package dev.fedbpt.actors;

import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.ModelFacts;
import dev.fedbpt.engine.method.TokenEmbeddings;
import dev.fedbpt.inference.ModelTokenizer;

/**
 * The model facts a method is built with before the model is open (so that a bad method setting is refused before
 * anything loads): bound to the member's model once it is, read by the method only when it runs.
 */
public final class ModelBinding implements ModelFacts {
    private volatile ModelTokenizer model;
    private volatile TokenEmbeddings embeddings;

    public void bind(ModelTokenizer opened) {
        model = opened;
    }

    private ModelTokenizer model() {
        ModelTokenizer m = model;
        if (m == null) {
            throw new IllegalStateException("the method asked for the model before it was loaded");
        }
        return m;
    }

    @Override
    public Vocabulary vocabulary() {
        return new Vocabulary(model().vocabularySize(), model().specialTokenIds());
    }

    @Override
    public int layers() {
        return model().layers();
    }

    @Override
    public TokenEmbeddings embeddings() {
        TokenEmbeddings e = embeddings;
        if (e == null) {
            synchronized (this) {
                if (embeddings == null) {
                    ModelTokenizer m = model();
                    embeddings = new TokenEmbeddings(m.vocabularySize(), m.hiddenSize(), m.wordEmbeddings());
                }
                e = embeddings;
            }
        }
        return e;
    }
}
