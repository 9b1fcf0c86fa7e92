package dev.fedbpt.engine.method;

import dev.fedbpt.engine.data.Vocabulary;

/**
 * What a method may know of the frozen model besides the scores it asks for: the vocabulary and the word-embedding
 * matrix. The framework reads them from the model (lazily: most methods never ask for the matrix).
 */
public interface ModelFacts {
    Vocabulary vocabulary();

    TokenEmbeddings embeddings();

    /** Transformer layers of the model (a prefix has key/value vectors on each). */
    default int layers() {
        throw new IllegalStateException("this model does not say how many layers it has");
    }

    /** For methods that need neither (tests, benchmarks): asking throws. */
    ModelFacts NONE = new ModelFacts() {
        @Override
        public Vocabulary vocabulary() {
            throw new IllegalStateException("no model was given to this method");
        }

        @Override
        public TokenEmbeddings embeddings() {
            throw new IllegalStateException("no model was given to this method");
        }
    };

    static ModelFacts of(Vocabulary vocabulary, TokenEmbeddings embeddings) {
        return new ModelFacts() {
            @Override
            public Vocabulary vocabulary() {
                return vocabulary;
            }

            @Override
            public TokenEmbeddings embeddings() {
                return embeddings;
            }
        };
    }
}
