package io.parry.server.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;

/**
 * Checks that text is well-formed UTF-8 (RFC 3629, section 4) as it arrives, across frame boundaries:
 * no overlong forms, no surrogates, nothing past U+10FFFF. A text message that fails closes its session
 * with 1007 (RFC 6455, section 8.1), as soon as the first bad byte arrives.
 */
final class Utf8Validator implements ByteProcessor {
    private int pending;
    private int lower = 0x80;
    private int upper = 0xBF;
    private boolean failed;

    /** Checks the buffer's readable bytes; false as soon as they cannot be UTF-8. */
    boolean accept(ByteBuf bytes) {
        if (!failed && bytes.isReadable()) {
            bytes.forEachByte(this);
        }
        return !failed;
    }

    /** Whether the text seen so far ends at a character's end. */
    boolean isComplete() {
        return pending == 0 && !failed;
    }

    void reset() {
        pending = 0;
        lower = 0x80;
        upper = 0xBF;
        failed = false;
    }

    @Override
    public boolean process(byte value) {
        int b = value & 0xFF;
        if (pending == 0) {
            if (b < 0x80) {
                return true;
            }
            start(b);
        } else if (b < lower || b > upper) {
            failed = true;
        } else {
            pending--;
            lower = 0x80;
            upper = 0xBF;
        }
        return !failed;
    }

    /** A lead byte: how many continuation bytes follow, and the range of the next one. */
    private void start(int b) {
        if (b >= 0xC2 && b <= 0xDF) {
            pending = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            pending = 2;
            if (b == 0xE0) {
                lower = 0xA0; // Overlong below U+0800.
            } else if (b == 0xED) {
                upper = 0x9F; // Surrogates U+D800 to U+DFFF.
            }
        } else if (b >= 0xF0 && b <= 0xF4) {
            pending = 3;
            if (b == 0xF0) {
                lower = 0x90; // Overlong below U+10000.
            } else if (b == 0xF4) {
                upper = 0x8F; // Past U+10FFFF.
            }
        } else {
            failed = true;
        }
    }
}
