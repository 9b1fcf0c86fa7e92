package dev.fedbpt.actors;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/**
 * fedbpt's Akka settings ({@code fedbpt-akka.conf}: logging, shutdown, dispatchers, wire serialization) over
 * Akka's reference configuration. They are loaded explicitly rather than from a {@code reference.conf}, where
 * whichever jar comes first on the classpath would decide between ours and Akka's values.
 */
public final class AkkaDefaults {
    private AkkaDefaults() {}

    /** {@code settings} over fedbpt's defaults over Akka's (and any application.conf). */
    public static Config over(Config settings) {
        return settings.withFallback(ConfigFactory.parseResources(AkkaDefaults.class.getClassLoader(),
                "fedbpt-akka.conf")).withFallback(ConfigFactory.load()).resolve();
    }
}
