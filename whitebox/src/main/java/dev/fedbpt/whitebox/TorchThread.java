package dev.fedbpt.whitebox;

import ai.djl.engine.Engine;
import ai.djl.pytorch.jni.JniUtils;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The one thread of the JVM on which every PyTorch computation runs, one at a time. libtorch keeps state per thread
 * (its intra-op thread count, grad mode), the inference pool's workers run on whichever thread Akka gives them, and
 * DJL's gradient bookkeeping is one per JVM: on one thread each setting is made once and no two computations meet.
 */
final class TorchThread {
    private static final ExecutorService THREAD = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fedbpt-torch");
        t.setDaemon(true);
        return t;
    });

    private TorchThread() {}

    /**
     * Runs {@code work} on the torch thread, with one PyTorch intra-op thread (a per-thread setting in libtorch), and
     * waits for it; its exceptions are rethrown as they are.
     */
    static <T> T call(Callable<T> work) {
        Future<T> future = THREAD.submit(() -> {
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
}
