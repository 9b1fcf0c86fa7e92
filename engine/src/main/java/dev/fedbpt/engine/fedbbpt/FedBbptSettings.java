package dev.fedbpt.engine.fedbbpt;

import dev.fedbpt.engine.method.SettingsRules;
import java.util.Map;
import java.util.function.Function;

/**
 * What Fed-BBPT's and BDPL's stored run folders ran with: their prompts are tokens after [CLS], which the similarity
 * head's mean pooling averaged in with the sentence until {@value #POOL_TOKEN_PROMPT} said otherwise. Its own keys
 * ({@code fed-bbpt.*}) are checked where the method reads them ({@link FedBbptMethods#config}).
 */
public final class FedBbptSettings implements SettingsRules {
    static final String POOL_TOKEN_PROMPT = "model.pool-token-prompt";

    /**
     * A folder of these methods that predates {@value #POOL_TOKEN_PROMPT} pooled its token prompt unless it read a
     * masked-LM head, which pools nothing; every other folder reads the default, which changes nothing it computed.
     */
    @Override
    public Map<String, String> beforeKeysExisted(Function<String, String> stored) {
        boolean tokenPrompts = FedBbptMethods.NAMES.contains(stored.apply("experiment.method"));
        boolean pooled = !"masked-lm".equals(stored.apply("model.head"));
        return tokenPrompts && pooled && stored.apply(POOL_TOKEN_PROMPT) == null
                ? Map.of(POOL_TOKEN_PROMPT, "true") : Map.of();
    }
}
