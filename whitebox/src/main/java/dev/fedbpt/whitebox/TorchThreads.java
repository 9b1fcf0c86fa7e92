package dev.fedbpt.whitebox;

import ai.djl.engine.Engine;
import ai.djl.pytorch.jni.JniUtils;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads on which one model's PyTorch computations run: as many as the inference pool has workers, each
 * computing one call at a time with one PyTorch intra-op thread. libtorch keeps its intra-op thread count and grad
 * mode per thread, and the pool's workers run on whichever thread Akka gives them; on threads of its own each setting
 * is made where it applies. A call's result depends on the call alone, never on which of the threads runs it or what
 * the others compute meanwhile ({@code WhiteBoxModelTest} compares gradients computed two at a time, with a collector
 * running, with the same gradients computed one by one), so the pool's workers can keep every core busy.
 */
final class TorchThreads implements AutoCloseable {
    private static final AtomicInteger MODELS = new AtomicInteger();
    private final ExecutorService threads;
    private final int count;

    TorchThreads(int count) {
        if (count < 1) throw new IllegalArgumentException("a model needs at least one torch thread, got " + count);
        this.count = count;
        int model = MODELS.incrementAndGet();
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(count, r -> {
            Thread t = new Thread(r, "fedbpt-torch-" + model + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    int count() {
        return count;
    }

    /**
     * Runs {@code work} on one of the threads, with one PyTorch intra-op thread, and waits for it; its exceptions are
     * rethrown as they are.
     */
    <T> T call(Callable<T> work) {
        Future<T> future = threads.submit(() -> {
            Engine.getEngine("PyTorch"); // loads libtorch on the first call, before its functions are used
            if (JniUtils.getNumThreads() != 1) JniUtils.setNumThreads(1);
            return work.call();
        });
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return future.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the work runs on; wait for it so that nobody sees half a computation
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) throw re;
            if (cause instanceof Error error) throw error;
            throw new IllegalStateException(cause);
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** Lets the threads end once their work has (the model's arrays are closed on one of them before this). */
    @Override
    public void close() {
        threads.shutdown();
    }
}
