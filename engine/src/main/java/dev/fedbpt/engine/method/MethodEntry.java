package dev.fedbpt.engine.method;

import java.util.function.Function;

/**
 * A method as a package contributes it to {@link Methods}: its name, what the framework must know of it, what it
 * asks of the framework given its settings, and how it is built from settings. Its own file, so that the method
 * packages depend on the registry's entry type and the registry on the packages, not each on the other.
 */
public record MethodEntry(String name, MethodTraits traits, Function<MethodSettings, MethodNeeds> needs,
                          Function<MethodContext, FederatedMethod> factory) {}
