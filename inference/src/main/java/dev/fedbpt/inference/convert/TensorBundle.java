package dev.fedbpt.inference.convert;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * A TensorFlow tensor bundle (a checkpoint's {@code variables.index} + {@code variables.data-00000-of-00001}), read
 * without TensorFlow: the index is a {@link LevelDbTable} whose first entry (key "") is a {@code BundleHeaderProto}
 * and whose other entries map a tensor's name to a {@code BundleEntryProto} (dtype, shape, shard, offset, size,
 * masked crc32c; {@code tensorflow/core/protobuf/tensor_bundle.proto}). Only single-shard, little-endian bundles of
 * whole (unsliced) float32 tensors are read, which is what a TF-Hub BERT module holds.
 */
public final class TensorBundle {
    /** TensorFlow's DataType enum value of float32 (DT_FLOAT). */
    static final int DT_FLOAT = 1;

    /** One tensor's place in the data file. */
    public record Entry(String name, int dtype, long[] shape, long offset, long size, int maskedCrc32c) {
        public long elements() {
            long n = 1;
            for (long d : shape) n *= d;
            return n;
        }
    }

    private final String name;
    private final Map<String, Entry> entries;
    private final byte[] data;

    private TensorBundle(String name, Map<String, Entry> entries, byte[] data) {
        this.name = name;
        this.entries = entries;
        this.data = data;
    }

    /**
     * @param index the bytes of {@code variables.index}
     * @param data  the bytes of the one data shard
     * @param name  what to call the bundle in messages
     */
    public static TensorBundle read(byte[] index, byte[] data, String name) throws ConversionException {
        Map<String, byte[]> table = LevelDbTable.read(index, name + " (variables.index)");
        byte[] header = table.remove("");
        if (header == null) throw new ConversionException(name + ": the index has no bundle header (key \"\")");
        checkHeader(header, name);
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> e : table.entrySet()) {
            Entry entry = entry(e.getKey(), e.getValue(), name);
            if (entry.offset() < 0 || entry.offset() + entry.size() > data.length) {
                throw new ConversionException(name + ": tensor " + entry.name() + " lies at bytes " + entry.offset()
                        + " .. " + (entry.offset() + entry.size()) + " of a " + data.length + "-byte data file");
            }
            entries.put(entry.name(), entry);
        }
        return new TensorBundle(name, entries, data);
    }

    public Map<String, Entry> entries() {
        return entries;
    }

    /** The entry called {@code tensor}, checked to be float32 of {@code shape}. */
    public Entry floatEntry(String tensor, long... shape) throws ConversionException {
        Entry e = entries.get(tensor);
        if (e == null) throw new ConversionException(name + " has no tensor " + tensor);
        if (e.dtype() != DT_FLOAT) {
            throw new ConversionException(name + ": tensor " + tensor + " has TensorFlow dtype " + e.dtype()
                    + ", expected float32 (1)");
        }
        if (!Arrays.equals(e.shape(), shape)) {
            throw new ConversionException(name + ": tensor " + tensor + " has shape " + Arrays.toString(e.shape())
                    + ", expected " + Arrays.toString(shape));
        }
        if (e.size() != 4 * e.elements()) {
            throw new ConversionException(name + ": tensor " + tensor + " has " + e.size() + " bytes for "
                    + e.elements() + " float32 values");
        }
        return e;
    }

    /** The little-endian float32 bytes of {@code e} (a view, not a copy), checked against the entry's crc32c. */
    public ByteString bytes(Entry e) throws ConversionException {
        int from = Math.toIntExact(e.offset());
        int n = Math.toIntExact(e.size());
        CRC32C crc = new CRC32C();
        crc.update(data, from, n);
        if (LevelDbTable.mask((int) crc.getValue()) != e.maskedCrc32c()) {
            throw new ConversionException(name + ": tensor " + e.name() + " fails its crc32c check (the data file "
                    + "is damaged)");
        }
        return UnsafeByteOperations.unsafeWrap(data, from, n); // a view: the data array is never written to
    }

    private static void checkHeader(byte[] header, String name) throws ConversionException {
        int shards = 1;
        int endianness = 0;
        try {
            CodedInputStream in = CodedInputStream.newInstance(header);
            for (int tag; (tag = in.readTag()) != 0; ) {
                switch (WireFormat.getTagFieldNumber(tag)) {
                    case 1 -> shards = in.readInt32();
                    case 2 -> endianness = in.readEnum();
                    default -> in.skipField(tag);
                }
            }
        } catch (IOException e) {
            throw new ConversionException(name + ": unreadable bundle header: " + e.getMessage(), e);
        }
        if (shards != 1) throw new ConversionException(name + " has " + shards + " data shards; only 1 is read");
        if (endianness != 0) throw new ConversionException(name + " is big-endian; only little-endian is read");
    }

    private static Entry entry(String tensor, byte[] value, String name) throws ConversionException {
        int dtype = 0;
        long[] shape = new long[0];
        int shard = 0;
        long offset = 0;
        long size = 0;
        int crc = 0;
        try {
            CodedInputStream in = CodedInputStream.newInstance(value);
            for (int tag; (tag = in.readTag()) != 0; ) {
                switch (WireFormat.getTagFieldNumber(tag)) {
                    case 1 -> dtype = in.readEnum();
                    case 2 -> shape = shape(in.readByteArray());
                    case 3 -> shard = in.readInt32();
                    case 4 -> offset = in.readInt64();
                    case 5 -> size = in.readInt64();
                    case 6 -> crc = in.readFixed32();
                    case 7 -> throw new ConversionException(name + ": tensor " + tensor + " is stored in slices, "
                            + "which are not read");
                    default -> in.skipField(tag);
                }
            }
        } catch (IOException e) {
            throw new ConversionException(name + ": unreadable entry of tensor " + tensor + ": " + e.getMessage(), e);
        }
        if (shard != 0) throw new ConversionException(name + ": tensor " + tensor + " is in shard " + shard);
        return new Entry(tensor, dtype, shape, offset, size, crc);
    }

    /** TensorShapeProto: repeated Dim dim = 2, each with int64 size = 1. */
    private static long[] shape(byte[] proto) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(proto);
        long[] dims = new long[0];
        for (int tag; (tag = in.readTag()) != 0; ) {
            if (WireFormat.getTagFieldNumber(tag) == 2) {
                CodedInputStream dim = CodedInputStream.newInstance(in.readByteArray());
                long size = 0;
                for (int t; (t = dim.readTag()) != 0; ) {
                    if (WireFormat.getTagFieldNumber(t) == 1) size = dim.readInt64();
                    else dim.skipField(t);
                }
                dims = Arrays.copyOf(dims, dims.length + 1);
                dims[dims.length - 1] = size;
            } else {
                in.skipField(tag);
            }
        }
        return dims;
    }
}
