package io.parry.protection.internal;

import io.parry.http.spi.AsciiCase;

/** The content codings Parry writes and reads with the JDK's zlib (RFC 9110, section 8.4.1). */
public enum ContentCoding {
    /** RFC 1952 framing around a deflate stream; {@code x-gzip} is the same coding (section 8.4.1.3). */
    GZIP("gzip"),
    /** RFC 1950 (zlib) framing around a deflate stream (section 8.4.1.2). */
    DEFLATE("deflate");

    private final String token;

    ContentCoding(String token) {
        this.token = token;
    }

    /** The coding's name in {@code Content-Encoding}. */
    public String token() {
        return token;
    }

    /** The coding with this name, ignoring case; {@code null} for any other. */
    public static ContentCoding of(String name) {
        return of(name, 0, name.length());
    }

    /** The coding named by {@code text[start, end)}, ignoring case; {@code null} for any other. */
    static ContentCoding of(String text, int start, int end) {
        if (AsciiCase.regionEqualsIgnoreCase(text, start, end, "gzip")
                || AsciiCase.regionEqualsIgnoreCase(text, start, end, "x-gzip")) {
            return GZIP;
        }
        if (AsciiCase.regionEqualsIgnoreCase(text, start, end, "deflate")) {
            return DEFLATE;
        }
        return null;
    }
}
