package io.parry.protection.internal;

/**
 * Reads a gzip member's header (RFC 1952, section 2.3) from chunks that may split it anywhere: the
 * fixed ten bytes, then the optional extra field, name, comment and header CRC its flags announce.
 */
final class GzipHeader {
    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;
    private static final int RESERVED = 0xe0;

    private enum Part {
        FIXED,
        EXTRA_LENGTH,
        EXTRA,
        NAME,
        COMMENT,
        HEADER_CRC,
        DONE
    }

    private Part part = Part.FIXED;
    private int flags;
    /** Bytes read of the current part, or left to skip of the extra field. */
    private int count;

    /** Whether the whole header has been read. */
    boolean done() {
        return part == Part.DONE;
    }

    /**
     * Reads header bytes from {@code bytes[start, end)}; returns where the compressed data starts (or
     * {@code end} when the header goes on in the next chunk).
     *
     * @throws IllegalArgumentException when the bytes are no gzip header
     */
    int read(byte[] bytes, int start, int end) {
        int i = start;
        while (i < end && part != Part.DONE) {
            int b = bytes[i++] & 0xff;
            switch (part) {
                case FIXED -> fixed(b);
                case EXTRA_LENGTH -> {
                    count = count == 0 ? b | 0x10000 : (count & 0xffff) | b << 8;
                    if (count < 0x10000) {
                        part = count == 0 ? after(FEXTRA) : Part.EXTRA;
                    }
                }
                case EXTRA -> {
                    if (--count == 0) {
                        part = after(FEXTRA);
                    }
                }
                case NAME -> part = b == 0 ? after(FNAME) : part;
                case COMMENT -> part = b == 0 ? after(FCOMMENT) : part;
                case HEADER_CRC -> part = ++count == 2 ? Part.DONE : part;
                default -> throw new IllegalStateException(part.name());
            }
        }
        return i;
    }

    private void fixed(int b) {
        switch (count++) {
            case 0 -> expect(b == 0x1f);
            case 1 -> expect(b == 0x8b);
            case 2 -> expect(b == 8); // CM: deflate is the only method defined.
            case 3 -> {
                expect((b & RESERVED) == 0);
                flags = b;
            }
            case 9 -> {
                count = 0;
                part = after(0);
            }
            default -> {}
        }
    }

    /** The part after the one of {@code flag} (0: the fixed bytes), skipping parts the flags leave out. */
    private Part after(int flag) {
        count = 0;
        if (flag < FEXTRA && (flags & FEXTRA) != 0) {
            return Part.EXTRA_LENGTH;
        }
        if (flag < FNAME && (flags & FNAME) != 0) {
            return Part.NAME;
        }
        if (flag < FCOMMENT && (flags & FCOMMENT) != 0) {
            return Part.COMMENT;
        }
        if ((flags & FHCRC) != 0 && flag != FHCRC) {
            return Part.HEADER_CRC;
        }
        return Part.DONE;
    }

    private static void expect(boolean valid) {
        if (!valid) {
            throw new IllegalArgumentException("not a gzip header");
        }
    }
}
