package io.parry.server.internal;

import io.netty.util.AsciiString;

/**
 * {@code Content-Length} values as ASCII text, each small one made once, at its first use, so a
 * response needs no conversion. Made as they are asked for rather than all 4,096 when the class loads,
 * which the first response of a process waited for (milliseconds, in the interpreter). Two threads may
 * make the same one at once; either text is right, and an {@link AsciiString}'s final fields publish
 * it safely.
 */
final class ContentLengths {
    private static final AsciiString[] SMALL = new AsciiString[4096];

    private ContentLengths() {}

    static CharSequence of(long length) {
        if (length >= SMALL.length) {
            return Long.toString(length);
        }
        AsciiString text = SMALL[(int) length];
        if (text == null) {
            text = AsciiString.cached(Long.toString(length));
            SMALL[(int) length] = text;
        }
        return text;
    }
}
