package dev.fedbpt.engine.dlsec;

import java.util.function.Supplier;

/**
 * A value computed on first use, once, whichever thread asks first (the clients of one JVM share a method
 * instance): what this package builds from the model only when a run needs it.
 */
final class Lazy<T> implements Supplier<T> {
    private final Supplier<T> compute;
    private volatile T value;

    Lazy(Supplier<T> compute) {
        this.compute = compute;
    }

    @Override
    public T get() {
        T v = value;
        if (v == null) {
            synchronized (this) {
                if (value == null) {
                    value = compute.get();
                }
                v = value;
            }
        }
        return v;
    }
}
