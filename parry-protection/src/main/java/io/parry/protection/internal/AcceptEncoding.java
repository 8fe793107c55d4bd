package io.parry.protection.internal;

import io.parry.http.spi.AsciiCase;
import java.util.List;

/**
 * Chooses the response's content coding from the request's {@code Accept-Encoding} fields (RFC 9110,
 * section 12.5.3): the offered coding with the highest weight, the server's order breaking ties; a
 * coding the client did not list is acceptable only through {@code *}; {@code identity} is acceptable
 * unless {@code identity;q=0}, or {@code *;q=0} without an {@code identity} entry, says otherwise. One
 * pass over the text, no allocation.
 */
public final class AcceptEncoding {
    private static final int UNLISTED = -1;
    private static final int INVALID = -2;

    private AcceptEncoding() {}

    /**
     * The outcome for these field values (none: {@link Negotiation#IDENTITY}).
     *
     * @param offered the codings the server may use, preferred first
     */
    public static Negotiation negotiate(List<String> values, List<ContentCoding> offered) {
        if (values.isEmpty()) {
            return Negotiation.IDENTITY;
        }
        int gzip = UNLISTED;
        int deflate = UNLISTED;
        int identity = UNLISTED;
        int star = UNLISTED;
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
                int weight = nameEnd < end ? weight(text, nameEnd + 1, end) : 1000;
                int nameStart = skipSpaces(text, start, nameEnd);
                int nameStop = trimSpaces(text, nameStart, nameEnd);
                if (weight != INVALID && nameStart < nameStop) {
                    if (nameStop - nameStart == 1 && text.charAt(nameStart) == '*') {
                        star = weight;
                    } else if (AsciiCase.regionEqualsIgnoreCase(text, nameStart, nameStop, "identity")) {
                        identity = weight;
                    } else {
                        ContentCoding coding = ContentCoding.of(text, nameStart, nameStop);
                        if (coding == ContentCoding.GZIP) {
                            gzip = weight;
                        } else if (coding == ContentCoding.DEFLATE) {
                            deflate = weight;
                        }
                    }
                }
                start = end + 1;
            }
        }
        ContentCoding best = null;
        int bestWeight = 0;
        for (int i = 0; i < offered.size(); i++) {
            ContentCoding coding = offered.get(i);
            int listed = coding == ContentCoding.GZIP ? gzip : deflate;
            int weight = listed != UNLISTED ? listed : Math.max(star, 0);
            if (weight > bestWeight) {
                best = coding;
                bestWeight = weight;
            }
        }
        boolean identityRefused = identity == 0 || (identity == UNLISTED && star == 0);
        // A client may prefer the identity coding by giving it the higher weight.
        if (best == null || identity > bestWeight) {
            return identityRefused ? Negotiation.IDENTITY_REFUSED : Negotiation.IDENTITY;
        }
        return Negotiation.of(best, identityRefused);
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
