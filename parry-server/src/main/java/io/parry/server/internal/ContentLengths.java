package io.parry.server.internal;

import io.netty.util.AsciiString;

/** {@code Content-Length} values as ASCII text, the small ones made once, so a response needs no conversion. */
final class ContentLengths {
    private static final AsciiString[] SMALL = new AsciiString[4096];

    static {
        for (int i = 0; i < SMALL.length; i++) {
            SMALL[i] = AsciiString.cached(Integer.toString(i));
        }
    }

    private ContentLengths() {}

    static CharSequence of(long length) {
        return length < SMALL.length ? SMALL[(int) length] : Long.toString(length);
    }
}
