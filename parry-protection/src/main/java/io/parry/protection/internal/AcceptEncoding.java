package io.parry.protection.internal;

import io.parry.http.spi.AsciiCase;
import io.parry.protection.ContentCoding;
import java.util.List;

/**
 * Chooses the response's content coding from the request's {@code Accept-Encoding} fields (RFC 9110,
 * section 12.5.3): the offered coding with the highest weight, the server's order breaking ties; a
 * coding the client did not list is acceptable only through {@code *}; {@code identity} is acceptable
 * unless {@code identity;q=0}, or {@code *;q=0} without an {@code identity} entry, says otherwise. A few
 * passes over the text (one per offered coding), no allocation: the outcome is an {@code int} read by
 * {@link #chosen(int)} and {@link #identityRefused(int)}.
 */
public final class AcceptEncoding {
    /** No coding; the body as it is. */
    public static final int IDENTITY = -2;
    /** No acceptable coding, and identity refused: the body goes as it is all the same (RFC 9110, 12.5.3). */
    public static final int IDENTITY_REFUSED = -1;

    private static final int UNLISTED = -1;
    private static final int INVALID = -2;

    private AcceptEncoding() {}

    /**
     * The outcome for these field values (none: {@link #IDENTITY}).
     *
     * @param offered the codings the server may use, preferred first
     */
    public static int negotiate(List<String> values, List<ContentCoding> offered) {
        if (values.isEmpty()) {
            return IDENTITY;
        }
        int identity = listed(values, "identity");
        int star = listed(values, "*");
        int best = -1;
        int bestWeight = 0;
        for (int i = 0; i < offered.size(); i++) {
            int listed = listed(values, offered.get(i).token());
            int weight = listed != UNLISTED ? listed : Math.max(star, 0);
            if (weight > bestWeight) {
                best = i;
                bestWeight = weight;
            }
        }
        boolean identityRefused = identity == 0 || (identity == UNLISTED && star == 0);
        // A client may prefer the identity coding by giving it the higher weight.
        if (best < 0 || identity > bestWeight) {
            best = -1;
        }
        return best << 1 | (identityRefused ? 1 : 0);
    }

    /** The index of the chosen coding among those offered, or -1 for none. */
    public static int chosen(int outcome) {
        return outcome >> 1;
    }

    /** Whether the client refused the identity coding, so that even a small body is to be coded. */
    public static boolean identityRefused(int outcome) {
        return (outcome & 1) != 0;
    }

    /** Whether {@code text[start, end)} names the coding with this token, ignoring case. */
    public static boolean names(String text, int start, int end, String token) {
        return AsciiCase.regionEqualsIgnoreCase(text, start, end, token)
                // RFC 9110, section 8.4.1.3: a recipient SHOULD read x-gzip as gzip.
                || (token.equals("gzip") && AsciiCase.regionEqualsIgnoreCase(text, start, end, "x-gzip"));
    }

    /** The weight of the last entry naming {@code name} ({@code *} and {@code identity} included), or UNLISTED. */
    private static int listed(List<String> values, String name) {
        int found = UNLISTED;
        for (int v = 0; v < values.size(); v++) {
            String text = values.get(v);
            int length = text.length();
            int start = 0;
            while (start < length) {
                int end = text.indexOf(',', start);
                if (end < 0) {
                    end = length;
                }
                int semicolon = text.indexOf(';', start);
                int nameEnd = semicolon >= 0 && semicolon < end ? semicolon : end;
                int nameStart = skipSpaces(text, start, nameEnd);
                int nameStop = trimSpaces(text, nameStart, nameEnd);
                if (nameStart < nameStop && names(text, nameStart, nameStop, name)) {
                    int weight = nameEnd < end ? weight(text, nameEnd + 1, end) : 1000;
                    if (weight != INVALID) {
                        found = weight;
                    }
                }
                start = end + 1;
            }
        }
        return found;
    }

    /** The weight in thousandths from the parameters in {@code text[start, end)}: 1000 without {@code q}. */
    private static int weight(String text, int start, int end) {
        int i = skipSpaces(text, start, end);
        if (end - i < 2 || AsciiCase.toLower(text.charAt(i)) != 'q' || text.charAt(i + 1) != '=') {
            return 1000; // RFC 9110, section 12.4.2: q is the only parameter defined here; others are ignored.
        }
        return qvalue(text, i + 2, trimSpaces(text, i + 2, end));
    }

    /** {@code qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )}, RFC 9110 section 12.4.2. */
    private static int qvalue(String text, int start, int end) {
        if (start >= end || end - start > 5) {
            return INVALID;
        }
        char first = text.charAt(start);
        if (first != '0' && first != '1') {
            return INVALID;
        }
        int value = first == '1' ? 1000 : 0;
        if (start + 1 == end) {
            return value;
        }
        if (text.charAt(start + 1) != '.') {
            return INVALID;
        }
        int scale = 100;
        for (int i = start + 2; i < end; i++, scale /= 10) {
            char c = text.charAt(i);
            if (c < '0' || c > '9' || (first == '1' && c != '0')) {
                return INVALID;
            }
            value += (c - '0') * scale;
        }
        return value;
    }

    private static int skipSpaces(String text, int start, int end) {
        while (start < end && (text.charAt(start) == ' ' || text.charAt(start) == '\t')) {
            start++;
        }
        return start;
    }

    private static int trimSpaces(String text, int start, int end) {
        while (end > start && (text.charAt(end - 1) == ' ' || text.charAt(end - 1) == '\t')) {
            end--;
        }
        return end;
    }
}
