package dev.fedbpt.inference;

import ai.onnx.proto.OnnxMl.ModelProto;
import com.google.protobuf.CodedInputStream;
import dev.fedbpt.inference.convert.ConversionException;
import dev.fedbpt.inference.convert.ModelCache;
import com.google.protobuf.UnsafeByteOperations;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;

/** Reads the raw bytes of an ONNX export and parses them (with the protobuf size limit raised for big models). */
final class OnnxModelReader {

    private OnnxModelReader() {
    }

    /** The raw bytes of the export named by {@code source}. */
    static byte[] readBytes(ModelSource source) throws ModelLoadException {
        try {
            if (source.isBundled() && source.bundledModel().converted() != null) {
                return convertedFile(source.bundledModel(), false);
            }
            if (source.isBundled()) {
                try (InputStream in = resource(source.bundledModel(), source.bundledModel().modelResource())) {
                    return in.readAllBytes();
                }
            }
            return Files.readAllBytes(source.onnxFile());
        } catch (NoSuchFileException e) {
            throw new ModelLoadException("model file not found: " + source.describe(), e);
        } catch (IOException e) {
            throw new ModelLoadException("cannot read model " + source.describe() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The bytes of a converted model's {@code model.onnx} (or, with {@code tokenizer}, its tokenizer.json) from the
     * model cache, converted first if needed and checked against the cache's digest.
     */
    static byte[] convertedFile(ModelSource.Bundled model, boolean tokenizer) throws ModelLoadException {
        try {
            return ModelCache.verified(model.converted(), ModelCache.root(), tokenizer);
        } catch (ConversionException e) {
            throw new ModelLoadException("cannot convert the bundled model " + model.id() + ": " + e.getMessage(), e);
        }
    }

    /** Parses bytes as an ONNX ModelProto; refuses anything without a graph. */
    static ModelProto parse(byte[] bytes, String name) throws ModelLoadException {
        return parse(CodedInputStream.newInstance(bytes), name);
    }

    /**
     * As {@link #parse(byte[], String)}, but the tensors' bytes are views of {@code bytes}, not copies (which would
     * double the heap a model takes): for reading shapes and names only, while {@code bytes} stays unchanged.
     */
    static ModelProto parseAliasing(byte[] bytes, String name) throws ModelLoadException {
        // Aliasing needs an input that protobuf knows to be immutable; newInstance(byte[]) copies regardless.
        CodedInputStream in = UnsafeByteOperations.unsafeWrap(bytes).newCodedInput();
        in.enableAliasing(true);
        return parse(in, name);
    }

    private static ModelProto parse(CodedInputStream in, String name) throws ModelLoadException {
        ModelProto model;
        try {
            in.setSizeLimit(Integer.MAX_VALUE);
            in.setRecursionLimit(1000);
            model = ModelProto.parseFrom(in);
        } catch (IOException | RuntimeException e) {
            throw new ModelLoadException(name + " is not a readable ONNX model (protobuf parse failed: "
                    + e.getMessage() + ")", e);
        }
        if (!model.hasGraph() || model.getGraph().getNodeCount() == 0) {
            throw new ModelLoadException(name + " is not a usable ONNX export: it has no graph nodes");
        }
        return model;
    }

    /** The classpath resource {@code name} of the bundled model {@code model}. */
    static InputStream resource(ModelSource.Bundled model, String name) throws ModelLoadException {
        InputStream in = OnnxModelReader.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new ModelLoadException("classpath resource " + name + " of the bundled model " + model.id()
                    + " not found (is " + model.artifact() + " on the classpath?)");
        }
        return in;
    }
}
