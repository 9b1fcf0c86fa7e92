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
 * The thread on which one model's PyTorch computations run, one call at a time, with one PyTorch intra-op thread.
 * libtorch keeps its intra-op thread count and grad mode per thread, and the inference pool's workers run on
 * whichever thread Akka gives them; on a thread of its own each setting is made where it applies. Each inference
 * worker loads a model of its own, so two workers compute at once on two cores; a call's result depends on the call
 * alone, never on what another model computes meanwhile ({@code WhiteBoxModelTest} compares gradients computed by two
 * models at once, with a collector running, with the same gradients computed one by one).
 */
final class TorchThread implements AutoCloseable {
    private static final AtomicInteger MODELS = new AtomicInteger();
    private final ExecutorService thread;

    TorchThread() {
        String name = "fedbpt-torch-" + MODELS.incrementAndGet();
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Runs {@code work} on the thread, with one PyTorch intra-op thread, and waits for it; its exceptions are
     * rethrown as they are.
     */
    <T> T call(Callable<T> work) {
        Future<T> future = thread.submit(() -> {
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

    /** Lets the thread end once its work has (the model's arrays are closed on it before this). */
    @Override
    public void close() {
        thread.shutdown();
    }
}
