package dev.fedbpt.actors;

import akka.actor.typed.ActorSystem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The experiments running in this JVM, so that a stop signal can end them before the JVM's shutdown hooks run.
 * ONNX Runtime's Java binding frees its native environment in a shutdown hook of its own, which runs beside Akka's:
 * an inference worker still inside a forward pass then reads freed memory (a SIGSEGV in ONNX Runtime, in 1 of 3
 * sweeps stopped by SIGTERM here). A run counts from its actor system's start until its models are closed.
 */
public final class ActiveRuns {
    private static final Set<ActorSystem<?>> RUNNING = new HashSet<>(); // guarded by itself
    private static volatile boolean stopping;

    private ActiveRuns() {}

    public static void started(ActorSystem<?> system) {
        synchronized (RUNNING) {
            RUNNING.add(system);
        }
        if (stopping) {
            system.terminate();
        }
    }

    /** After the run's models are closed. */
    public static void ended(ActorSystem<?> system) {
        synchronized (RUNNING) {
            RUNNING.remove(system);
            RUNNING.notifyAll();
        }
    }

    /** For tests that stop runs: later runs in the same JVM start as usual again. */
    static void clearStop() {
        stopping = false;
    }

    /** Whether a stop was asked for: a sweep starts no further cell, and a run that ends says it was stopped. */
    public static boolean stopping() {
        return stopping;
    }

    /**
     * Terminates every running experiment's actor system (what is journalled stays: a run resumes from it) and waits,
     * up to {@code timeout}, until each has closed its models.
     *
     * @return whether every run ended in time
     */
    public static boolean stopAll(Duration timeout) {
        stopping = true;
        List<ActorSystem<?>> systems;
        synchronized (RUNNING) {
            systems = new ArrayList<>(RUNNING);
        }
        systems.forEach(ActorSystem::terminate);
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (RUNNING) {
            while (!RUNNING.isEmpty()) {
                long leftMs = (deadline - System.nanoTime()) / 1_000_000;
                if (leftMs <= 0) {
                    return false;
                }
                try {
                    RUNNING.wait(leftMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }
}
