package dev.fedbpt.engine.method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Golden bytes for a payload codec: what its encoding of a payload was when the bytes were recorded, which journals
 * already hold and which every later version must still write and read. A case {@link #written} must encode to its
 * bytes and decode from them to an equal payload; a case {@link #readOnly} (a kind the codec still reads from old
 * journals but no longer writes) must decode. Payloads compare component by component, arrays, lists and maps
 * element by element, and every float and double by its raw bits (NaN payloads and -0.0 included).
 *
 * <p>The bytes are hex; white space in them is ignored. A case whose bytes are {@code TODO} fails and prints its
 * encoding (a line {@code GOLDEN <codec> <name> <hex>}), which is how the bytes were recorded: never re-record bytes
 * that already stand in a test, since journals hold them.
 */
public final class GoldenBytes {
    private static final HexFormat HEX = HexFormat.of();

    private GoldenBytes() {}

    public record Case(String name, Payload payload, String hex, boolean written) {}

    public static Case written(String name, Payload payload, String hex) {
        return new Case(name, payload, hex, true);
    }

    public static Case readOnly(String name, Payload payload, String hex) {
        return new Case(name, payload, hex, false);
    }

    public static Stream<DynamicTest> tests(PayloadCodec codec, Case... cases) {
        return Stream.of(cases).map(c -> DynamicTest.dynamicTest(c.name(), () -> check(codec, c)));
    }

    private static void check(PayloadCodec codec, Case c) {
        String golden = c.hex().replaceAll("\\s", "");
        if (golden.equals("TODO")) {
            String encoding = HEX.formatHex(codec.encode(c.payload()));
            System.out.println("GOLDEN\t" + codec.name() + "\t" + c.name() + "\t" + encoding);
            fail("no golden bytes recorded for " + c.name());
        }
        if (c.written()) {
            assertEquals(golden, HEX.formatHex(codec.encode(c.payload())), "encoding of " + c.name());
        }
        Payload back = codec.decode(HEX.parseHex(golden));
        assertSameValue(c.payload(), back, c.name());
        assertEquals(codec.name(), back.codec(), c.name());
    }

    /** Whether {@code actual} is {@code expected}: records by component, containers by element, numbers by bits. */
    public static void assertSameValue(Object expected, Object actual, String path) {
        if (expected == null || actual == null) {
            assertEquals(expected, actual, path);
            return;
        }
        assertEquals(expected.getClass().isArray(), actual.getClass().isArray(), path + ": array or not");
        if (expected.getClass().isArray()) {
            assertEquals(expected.getClass(), actual.getClass(), path + ": array type");
            assertEquals(Array.getLength(expected), Array.getLength(actual), path + ": length");
            for (int i = 0; i < Array.getLength(expected); i++) {
                assertSameValue(Array.get(expected, i), Array.get(actual, i), path + "[" + i + "]");
            }
        } else if (expected instanceof Record) {
            assertEquals(expected.getClass(), actual.getClass(), path + ": type");
            for (RecordComponent component : expected.getClass().getRecordComponents()) {
                assertSameValue(value(component, expected), value(component, actual),
                        path + "." + component.getName());
            }
        } else if (expected instanceof List<?> list) {
            assertSameValue(list.toArray(), ((List<?>) actual).toArray(), path);
        } else if (expected instanceof Map<?, ?> map) {
            assertEquals(map.size(), ((Map<?, ?>) actual).size(), path + ": size");
            Iterator<? extends Map.Entry<?, ?>> others = ((Map<?, ?>) actual).entrySet().iterator();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                Map.Entry<?, ?> other = others.next();
                assertSameValue(entry.getKey(), other.getKey(), path + " key");
                assertSameValue(entry.getValue(), other.getValue(), path + "{" + entry.getKey() + "}");
            }
        } else if (expected instanceof Double d) {
            assertEquals(Long.toHexString(Double.doubleToRawLongBits(d)),
                    Long.toHexString(Double.doubleToRawLongBits((Double) actual)), path + ": bits of " + d);
        } else if (expected instanceof Float f) {
            assertEquals(Integer.toHexString(Float.floatToRawIntBits(f)),
                    Integer.toHexString(Float.floatToRawIntBits((Float) actual)), path + ": bits of " + f);
        } else {
            assertEquals(expected, actual, path);
        }
    }

    private static Object value(RecordComponent component, Object record) {
        try {
            var accessor = component.getAccessor();
            accessor.setAccessible(true);
            return accessor.invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot read " + component.getName() + " of " + record.getClass(), e);
        }
    }
}
