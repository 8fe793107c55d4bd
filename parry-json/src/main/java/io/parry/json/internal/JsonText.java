package io.parry.json.internal;

import com.fasterxml.jackson.core.JsonLocation;

/**
 * The UTF-8 bytes a decoder read, for naming places in them as a client counts: Jackson counts the
 * columns of byte input in bytes, a client's editor in characters. Made only when decoding fails.
 */
final class JsonText {
    private final byte[] bytes;
    private final int offset;
    private final int length;

    JsonText(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.offset = offset;
        this.length = length;
    }

    /** {@code line L, column C} for Jackson's location, with the column in characters. */
    String where(JsonLocation location) {
        return location == null ? "an unknown place" : place(location.getLineNr(), location.getColumnNr());
    }

    /** {@code line L, column C} for Jackson's line and byte column, with the column in characters. */
    String place(int line, int byteColumn) {
        return "line " + line + ", column " + column(line, byteColumn);
    }

    /**
     * The column in characters (code points). Lines end as Jackson ends them: at LF, CR or CRLF. A place
     * outside the text keeps Jackson's column.
     */
    private int column(int line, int byteColumn) {
        int end = offset + length;
        int i = offset;
        int current = 1;
        while (current < line && i < end) {
            byte b = bytes[i++];
            if (b == '\n') {
                current++;
            } else if (b == '\r') {
                current++;
                if (i < end && bytes[i] == '\n') {
                    i++;
                }
            }
        }
        if (current != line || byteColumn < 1 || byteColumn - 1 > end - i) {
            return byteColumn;
        }
        int stop = i + byteColumn - 1;
        int characters = 0;
        for (; i < stop; i++) {
            if ((bytes[i] & 0xC0) != 0x80) { // not a UTF-8 continuation byte
                characters++;
            }
        }
        return characters + 1;
    }
}
