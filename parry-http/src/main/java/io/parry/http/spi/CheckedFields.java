package io.parry.http.spi;

import io.parry.http.HttpHeaders;

/**
 * Makes {@link HttpHeaders} from fields a decoder has checked already, without checking them again:
 * an HTTP/2 header block, whose names and values Netty's HPACK decoder holds to RFC 9113, section
 * 8.2.1 (a token of lower-case characters; no NUL, CR, LF or other control character in a value),
 * rules at least as strict as those {@code HttpHeaders} enforces.
 *
 * <p>Only for fields so checked: anything else goes through {@link HttpHeaders#builder()}.
 */
public final class CheckedFields {
    private static Maker maker;

    static {
        HttpHeaders.empty(); // Loads HttpHeaders, which hands over its maker as it does.
    }

    private CheckedFields() {}

    /**
     * Headers holding the first {@code size} fields of {@code namesAndValues} (names and values
     * alternating), which they take over: the caller no longer changes the array.
     */
    public static HttpHeaders of(String[] namesAndValues, int size) {
        if (size < 0 || 2 * size > namesAndValues.length) {
            throw new IllegalArgumentException("size: " + size + " (expected: 0 to " + namesAndValues.length / 2 + ")");
        }
        return maker.make(namesAndValues, size);
    }

    /** Called once, by {@link HttpHeaders} as it loads. */
    public static void maker(Maker maker) {
        if (CheckedFields.maker != null) {
            throw new IllegalStateException("maker: set already");
        }
        CheckedFields.maker = maker;
    }

    /** How {@link HttpHeaders} makes headers from its fields, unchecked. */
    @FunctionalInterface
    public interface Maker {
        /** Headers holding the first {@code size} fields of {@code namesAndValues}. */
        HttpHeaders make(String[] namesAndValues, int size);
    }
}
