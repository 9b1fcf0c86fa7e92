package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.MethodTraits;
import dev.fedbpt.engine.method.Methods;

import java.util.List;

/** This package's entry in the method registry: "dls-ec", read from the {@code dls-ec.*} settings. */
public final class DlsEcMethods {
    private DlsEcMethods() {}

    public static List<Methods.Entry> entries() {
        return List.of(new Methods.Entry(DlsEcMethod.NAME, MethodTraits.PERSONALISED,
                c -> new DlsEcMethod(DlsEcConfig.from(c.settings()), c)));
    }
}
