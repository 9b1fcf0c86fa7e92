package dev.fedbpt.engine.method;

import dev.fedbpt.engine.fedbbpt.FedBbptMethods;
import dev.fedbpt.engine.fedbbpt.FedBbptPayloads;
import dev.fedbpt.engine.fedbpt.CmaesPayloads;
import dev.fedbpt.engine.fedbpt.FedBptMethods;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The registry of methods and payload codecs: the only place that lists them. Each method package contributes its
 * entries; the framework creates a method by the name a configuration gives and encodes payloads by the codec name
 * they carry.
 */
public final class Methods {

    /** A registered method: its name and how it is built from the configuration. */
    public record Entry(String name, Function<MethodSettings, FederatedMethod> factory) {}

    private static final Map<String, Entry> METHODS = new LinkedHashMap<>();
    private static final Map<String, PayloadCodec> CODECS = new LinkedHashMap<>();

    static {
        FedBptMethods.entries().forEach(entry -> METHODS.put(entry.name(), entry));
        FedBbptMethods.entries().forEach(entry -> METHODS.put(entry.name(), entry));
        register(new CmaesPayloads());
        register(new FedBbptPayloads());
    }

    private Methods() {}

    private static void register(PayloadCodec codec) {
        if (CODECS.putIfAbsent(codec.name(), codec) != null) {
            throw new IllegalStateException("two payload codecs named " + codec.name());
        }
    }

    /** Registered method names, in registration order. */
    public static List<String> names() {
        return new ArrayList<>(METHODS.keySet());
    }

    /** @throws IllegalArgumentException naming the known methods when {@code name} is not one of them */
    public static FederatedMethod create(String name, MethodSettings settings) {
        Entry entry = METHODS.get(name);
        if (entry == null) {
            throw new IllegalArgumentException("unknown method '" + name + "'; known: " + String.join(", ", names()));
        }
        return entry.factory().apply(settings);
    }

    /** @throws IllegalArgumentException when no codec of that name is registered */
    public static PayloadCodec codec(String name) {
        PayloadCodec codec = CODECS.get(name);
        if (codec == null) {
            throw new IllegalArgumentException("no payload codec named '" + name + "' (known: "
                    + String.join(", ", CODECS.keySet()) + ")");
        }
        return codec;
    }

    public static PayloadCodec codecOf(Payload payload) {
        return codec(payload.codec());
    }
}
