package dev.fedbpt.engine.method;

import dev.fedbpt.engine.dlsec.DlsEcMethods;
import dev.fedbpt.engine.dlsec.DlsEcPayloads;
import dev.fedbpt.engine.dlsec.DlsEcSettings;
import dev.fedbpt.engine.fedbbpt.FedBbptMethods;
import dev.fedbpt.engine.fedbbpt.FedBbptPayloads;
import dev.fedbpt.engine.fedbbpt.FedBbptSettings;
import dev.fedbpt.engine.fedbpt.CmaesPayloads;
import dev.fedbpt.engine.fedbpt.FedBptMethods;
import dev.fedbpt.engine.fedbpt.FedBptSettings;
import dev.fedbpt.engine.fedpeptao.FedPepTaoMethods;
import dev.fedbpt.engine.fedpeptao.PepTaoPayloads;
import dev.fedbpt.engine.fedpeptao.PepTaoSettings;
import dev.fedbpt.engine.gradient.GradientMethods;
import dev.fedbpt.engine.gradient.GradientPayloads;
import dev.fedbpt.engine.gradient.GradientSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The registry of methods and payload codecs: the only place that lists them. Each method package contributes its
 * entries; the framework creates a method by the name a configuration gives and encodes payloads by the codec name
 * they carry.
 */
public final class Methods {

    private static final Map<String, MethodEntry> METHODS = new LinkedHashMap<>();
    private static final Map<String, PayloadCodec> CODECS = new LinkedHashMap<>();
    private static final List<SettingsRules> RULES = List.of(new FedBptSettings(), new FedBbptSettings(),
            new GradientSettings(), new PepTaoSettings(), new DlsEcSettings());

    static {
        FedBptMethods.entries().forEach(entry -> METHODS.put(entry.name(), entry));
        FedBbptMethods.entries().forEach(entry -> METHODS.put(entry.name(), entry));
        DlsEcMethods.entries().forEach(entry -> METHODS.put(entry.name(), entry));
        GradientMethods.entries().forEach(entry -> METHODS.put(entry.name(), entry));
        FedPepTaoMethods.entries().forEach(entry -> METHODS.put(entry.name(), entry));
        register(new CmaesPayloads());
        register(new FedBbptPayloads());
        register(new DlsEcPayloads());
        register(new GradientPayloads());
        register(new PepTaoPayloads());
    }

    private Methods() {}

    private static void register(PayloadCodec codec) {
        if (CODECS.putIfAbsent(codec.name(), codec) != null) {
            throw new IllegalStateException("two payload codecs named " + codec.name());
        }
    }

    /** Registered method names, in registration order (reports colour methods in this order). */
    public static List<String> names() {
        return new ArrayList<>(METHODS.keySet());
    }

    /** The rules of every method package's settings, which the configuration applies whatever the method. */
    public static List<SettingsRules> settingsRules() {
        return RULES;
    }

    /**
     * What method {@code name} asks of the framework under {@code settings}, each read by the method's own package.
     *
     * @throws IllegalArgumentException naming the known methods when {@code name} is not one of them
     * @throws SettingException naming the key when one of the settings it reads is out of range
     */
    public static MethodNeeds needs(String name, MethodSettings settings) {
        return entry(name).needs().apply(settings);
    }

    /** @throws IllegalArgumentException naming the known methods when {@code name} is not one of them */
    public static FederatedMethod create(String name, MethodContext context) {
        return entry(name).factory().apply(context);
    }

    /** @throws IllegalArgumentException naming the known methods when {@code name} is not one of them */
    public static MethodTraits traits(String name) {
        return entry(name).traits();
    }

    public static boolean isKnown(String name) {
        return METHODS.containsKey(name);
    }

    private static MethodEntry entry(String name) {
        MethodEntry entry = METHODS.get(name);
        if (entry == null) {
            throw new IllegalArgumentException("unknown method '" + name + "'; known: " + String.join(", ", names()));
        }
        return entry;
    }

    /** Registered payload codec names, in registration order. */
    public static List<String> codecNames() {
        return new ArrayList<>(CODECS.keySet());
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
