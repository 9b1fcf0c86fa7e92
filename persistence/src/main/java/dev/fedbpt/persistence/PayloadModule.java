package dev.fedbpt.persistence;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.fedbpt.engine.method.ClientMemory;
import dev.fedbpt.engine.method.Downlink;
import dev.fedbpt.engine.method.MethodState;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.method.Payload;
import dev.fedbpt.engine.method.Prompt;
import dev.fedbpt.engine.method.Upload;
import java.io.IOException;

/**
 * Writes a method's payloads (state, downlink, upload, client memory) inside the journal's and the wire's Jackson
 * records as {@code [codec name, bytes]}, the bytes being the method's own encoding ({@link Methods#codecOf}). The
 * records carry live objects; only here do they become bytes, and back. Registered for every fedbpt ActorSystem in
 * this module's reference.conf.
 */
public final class PayloadModule extends SimpleModule {

    public PayloadModule() {
        super("fedbpt-payloads");
        addSerializer(Payload.class, new PayloadWriter());
        addDeserializer(Payload.class, new PayloadReader<>(Payload.class));
        addDeserializer(MethodState.class, new PayloadReader<>(MethodState.class));
        addDeserializer(Downlink.class, new PayloadReader<>(Downlink.class));
        addDeserializer(Upload.class, new PayloadReader<>(Upload.class));
        addDeserializer(ClientMemory.class, new PayloadReader<>(ClientMemory.class));
        addSerializer(Prompt.class, new PromptWriter());
        addDeserializer(Prompt.class, new PromptReader());
    }

    /**
     * A prompt as {@code [kind, values]}: "continuous" with z, "tokens" with the ids, "embeddings" with the vectors
     * (an array of arrays), "deep" with its two lengths and its two value arrays.
     */
    private static final class PromptWriter extends StdSerializer<Prompt> {
        PromptWriter() {
            super(Prompt.class);
        }

        @Override
        public void serialize(Prompt prompt, JsonGenerator out, SerializerProvider provider) throws IOException {
            out.writeStartArray();
            if (prompt instanceof Prompt.Continuous continuous) {
                out.writeString("continuous");
                out.writeArray(continuous.z(), 0, continuous.z().length);
            } else if (prompt instanceof Prompt.Embeddings embeddings) {
                out.writeString("embeddings");
                out.writeStartArray();
                for (float[] vector : embeddings.vectors()) {
                    out.writeStartArray();
                    for (float v : vector) {
                        out.writeNumber(v);
                    }
                    out.writeEndArray();
                }
                out.writeEndArray();
            } else if (prompt instanceof Prompt.Tokens tokens) {
                out.writeString("tokens");
                out.writeArray(tokens.ids(), 0, tokens.ids().length);
            } else if (prompt instanceof Prompt.Deep deep) {
                out.writeString("deep");
                out.writeNumber(deep.inputLength());
                out.writeNumber(deep.prefixLength());
                out.writeArray(deep.input(), 0, deep.input().length);
                out.writeArray(deep.prefix(), 0, deep.prefix().length);
                if (deep.maskedPrefixLayers().length > 0) { // absent when none: older journals read alike
                    out.writeArray(deep.maskedPrefixLayers(), 0, deep.maskedPrefixLayers().length);
                }
            } else {
                throw new IllegalArgumentException("no wire form for a " + prompt.getClass().getName());
            }
            out.writeEndArray();
        }
    }

    private static final class PromptReader extends StdDeserializer<Prompt> {
        PromptReader() {
            super(Prompt.class);
        }

        @Override
        public Prompt deserialize(JsonParser in, DeserializationContext context) throws IOException {
            if (in.currentToken() != JsonToken.START_ARRAY) {
                return context.reportInputMismatch(Prompt.class, "a prompt is stored as [kind, values]");
            }
            String kind = in.nextTextValue();
            in.nextToken();
            Prompt prompt;
            if ("continuous".equals(kind)) {
                prompt = new Prompt.Continuous(context.readValue(in, double[].class));
            } else if ("embeddings".equals(kind)) {
                prompt = new Prompt.Embeddings(context.readValue(in, float[][].class));
            } else if ("tokens".equals(kind)) {
                prompt = new Prompt.Tokens(context.readValue(in, int[].class));
            } else if ("deep".equals(kind)) {
                int inputLength = in.getIntValue();
                in.nextToken();
                int prefixLength = in.getIntValue();
                in.nextToken();
                double[] input = context.readValue(in, double[].class);
                in.nextToken();
                double[] prefix = context.readValue(in, double[].class);
                int[] masked = null;
                if (in.nextToken() == JsonToken.START_ARRAY) {
                    masked = context.readValue(in, int[].class);
                    in.nextToken();
                }
                prompt = new Prompt.Deep(inputLength, input, prefixLength, prefix, masked);
            } else {
                return context.reportInputMismatch(Prompt.class, "unknown prompt kind %s", kind);
            }
            if (!(prompt instanceof Prompt.Deep)) {
                in.nextToken(); // a deep prompt's reader has looked past its values already
            }
            if (in.currentToken() != JsonToken.END_ARRAY) {
                return context.reportInputMismatch(Prompt.class, "a prompt ends after its values");
            }
            return prompt;
        }
    }

    private static final class PayloadWriter extends StdSerializer<Payload> {
        PayloadWriter() {
            super(Payload.class);
        }

        @Override
        public void serialize(Payload payload, JsonGenerator out, SerializerProvider provider) throws IOException {
            out.writeStartArray();
            out.writeString(payload.codec());
            out.writeBinary(Methods.codecOf(payload).encode(payload));
            out.writeEndArray();
        }
    }

    private static final class PayloadReader<T extends Payload> extends StdDeserializer<T> {
        private final Class<T> type;

        PayloadReader(Class<T> type) {
            super(type);
            this.type = type;
        }

        @Override
        public T deserialize(JsonParser in, DeserializationContext context) throws IOException {
            if (in.currentToken() != JsonToken.START_ARRAY) {
                return context.reportInputMismatch(type, "a %s is stored as [codec, bytes], found %s",
                        type.getSimpleName(), in.currentToken());
            }
            String codec = in.nextTextValue();
            in.nextToken();
            byte[] bytes = in.getBinaryValue();
            if (in.nextToken() != JsonToken.END_ARRAY) {
                return context.reportInputMismatch(type, "a %s ends after its bytes", type.getSimpleName());
            }
            Payload payload;
            try {
                payload = Methods.codec(codec).decode(bytes);
            } catch (IllegalArgumentException e) {
                return context.reportInputMismatch(type, "%s", e.getMessage());
            }
            if (!type.isInstance(payload)) {
                return context.reportInputMismatch(type, "codec %s decoded a %s where a %s was stored", codec,
                        payload.getClass().getSimpleName(), type.getSimpleName());
            }
            return type.cast(payload);
        }
    }
}
