package dev.fedbpt.actors.cluster;

import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Bytes and messages this member sent to other members, by message type (see {@link MeteredCborSerializer}). */
public final class WireTraffic implements Extension {

    public static final AbstractExtensionId<WireTraffic> ID = new AbstractExtensionId<>() {
        @Override
        public WireTraffic createExtension(ExtendedActorSystem system) {
            return new WireTraffic();
        }
    };

    /** What one kind of message added up to. */
    public record Tally(long messages, long bytes) {}

    private final Map<String, LongAdder[]> counts = new ConcurrentHashMap<>();

    void count(Class<?> type, int bytes) {
        LongAdder[] tally = counts.computeIfAbsent(name(type), key -> new LongAdder[] {new LongAdder(), new LongAdder()});
        tally[0].increment();
        tally[1].add(bytes);
    }

    /** Message type (e.g. {@code RoundStates.Global}) to what was sent so far. */
    public Map<String, Tally> snapshot() {
        Map<String, Tally> out = new TreeMap<>();
        counts.forEach((type, tally) -> out.put(type, new Tally(tally[0].sum(), tally[1].sum())));
        return out;
    }

    public long totalBytes() {
        return counts.values().stream().mapToLong(tally -> tally[1].sum()).sum();
    }

    /** How traffic is named: the message type with its protocol's owner, e.g. {@code RoundStates.Global}. */
    public static String name(Class<?> type) {
        Class<?> outer = type.getEnclosingClass();
        return outer == null ? type.getSimpleName() : outer.getSimpleName() + "." + type.getSimpleName();
    }
}
