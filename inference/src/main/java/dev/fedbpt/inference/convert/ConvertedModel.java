package dev.fedbpt.inference.convert;

/**
 * A model fedbpt converts into ONNX itself, once, from a jar on its classpath (see {@link ModelCache}).
 *
 * @param id        the cache folder's name, e.g. {@code bert-base-uncased}
 * @param resource  the classpath resource of the TF-Hub module inside the jar
 * @param artifact  groupId:artifactId:version of the jar, for messages
 * @param heads     attention heads (a TF checkpoint does not record them)
 * @param lowercase whether the tokenizer lower-cases (the uncased vocabulary) or not (the cased one)
 */
public record ConvertedModel(String id, String resource, String artifact, int heads, boolean lowercase) {
    /**
     * The converter's version: a cache entry written by another version is converted again. Raise it whenever
     * the graph or the tokenizer written changes.
     */
    static final int CONVERTER_VERSION = 1;
}
