package dev.fedbpt.inference.convert;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Reads every key/value pair of a LevelDB-format table (the sorted-string table TensorFlow's tensor bundle index is
 * written in; format: leveldb's {@code doc/table_format.md}): a 48-byte footer holding the index block's handle and
 * the magic number, an index block whose values are the data blocks' handles, and data blocks of prefix-compressed
 * entries followed by their restart array. Each block is followed by a 5-byte trailer (compression type, masked
 * crc32c of block and type), which is checked. Only uncompressed blocks are read: TensorFlow writes the bundle index
 * without compression.
 */
final class LevelDbTable {
    static final long MAGIC = 0xdb4775248b80fb57L;
    private static final int FOOTER = 48;
    private static final int TRAILER = 5;

    private LevelDbTable() {
    }

    /**
     * The table's entries in key order, keys as raw bytes kept in a map by their ISO-8859-1 string (one char a byte).
     *
     * @throws ConversionException naming {@code name} and what is wrong, for anything that is not a well-formed table
     */
    static Map<String, byte[]> read(byte[] table, String name) throws ConversionException {
        if (table.length < FOOTER) {
            throw new ConversionException(name + " is " + table.length + " bytes, shorter than a table footer (48)");
        }
        ByteBuffer footer = ByteBuffer.wrap(table, table.length - FOOTER, FOOTER).order(ByteOrder.LITTLE_ENDIAN);
        long magic = footer.getLong(table.length - 8);
        if (magic != MAGIC) {
            throw new ConversionException(name + " is not a LevelDB table: footer magic "
                    + Long.toHexString(magic) + ", expected " + Long.toHexString(MAGIC));
        }
        Cursor f = new Cursor(table, table.length - FOOTER, name);
        f.varint(); // metaindex offset
        f.varint(); // metaindex size
        long indexOffset = f.varint();
        long indexSize = f.varint();
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (byte[] handle : entries(block(table, indexOffset, indexSize, name), name).values()) {
            Cursor h = new Cursor(handle, 0, name);
            out.putAll(entries(block(table, h.varint(), h.varint(), name), name));
        }
        return out;
    }

    /** The block at {@code offset} of {@code size} bytes, its trailer checked. */
    private static byte[] block(byte[] table, long offset, long size, String name) throws ConversionException {
        if (offset < 0 || size < 4 || offset + size + TRAILER > table.length) {
            throw new ConversionException(name + ": block handle (offset " + offset + ", size " + size
                    + ") lies outside the " + table.length + "-byte table");
        }
        int start = (int) offset;
        int n = (int) size;
        int type = table[start + n] & 0xff;
        if (type != 0) {
            throw new ConversionException(name + ": block at offset " + offset + " is compressed (type " + type
                    + "); only uncompressed tables are read");
        }
        CRC32C crc = new CRC32C();
        crc.update(table, start, n + 1);
        int stored = ByteBuffer.wrap(table, start + n + 1, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (unmask(stored) != (int) crc.getValue()) {
            throw new ConversionException(name + ": block at offset " + offset + " fails its crc32c check");
        }
        return Arrays.copyOfRange(table, start, start + n);
    }

    /** The entries of one block: prefix-compressed keys up to the restart array at its end. */
    private static Map<String, byte[]> entries(byte[] block, String name) throws ConversionException {
        ByteBuffer b = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
        int restarts = b.getInt(block.length - 4);
        int limit = block.length - 4 - 4 * restarts;
        if (restarts < 0 || limit < 0) throw new ConversionException(name + ": block with a bad restart count");
        Map<String, byte[]> out = new LinkedHashMap<>();
        Cursor c = new Cursor(block, 0, name);
        byte[] key = new byte[0];
        while (c.pos < limit) {
            int shared = (int) c.varint();
            int nonShared = (int) c.varint();
            int valueLength = (int) c.varint();
            if (shared > key.length || c.pos + nonShared + valueLength > limit) {
                throw new ConversionException(name + ": entry at block offset " + c.pos + " runs past its block");
            }
            byte[] next = Arrays.copyOf(key, shared + nonShared);
            System.arraycopy(block, c.pos, next, shared, nonShared);
            c.pos += nonShared;
            key = next;
            out.put(new String(key, StandardCharsets.ISO_8859_1),
                    Arrays.copyOfRange(block, c.pos, c.pos + valueLength));
            c.pos += valueLength;
        }
        return out;
    }

    /** LevelDB stores crc32c values masked: rotated right by 15 bits plus a constant. */
    static int unmask(int masked) {
        int rot = masked - 0xa282ead8;
        return (rot >>> 17) | (rot << 15);
    }

    /** The inverse of {@link #unmask}. */
    static int mask(int crc) {
        return ((crc >>> 15) | (crc << 17)) + 0xa282ead8;
    }

    /** Reads little-endian base-128 varints from a byte array. */
    static final class Cursor {
        private final byte[] data;
        private final String name;
        int pos;

        Cursor(byte[] data, int pos, String name) {
            this.data = data;
            this.pos = pos;
            this.name = name;
        }

        long varint() throws ConversionException {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= data.length) throw new ConversionException(name + ": varint runs past the end");
                int b = data[pos++] & 0xff;
                v |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) return v;
            }
            throw new ConversionException(name + ": varint longer than 10 bytes");
        }
    }
}
