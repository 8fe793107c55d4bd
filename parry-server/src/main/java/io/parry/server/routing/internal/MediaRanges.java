package io.parry.server.routing.internal;

import io.parry.http.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Content negotiation: how acceptable a media type is under an {@code Accept} field (RFC 9110,
 * section 12.5.1), and whether a {@code Content-Type} is one a route consumes.
 */
public final class MediaRanges {
    /** Quality in thousandths, as a qvalue has at most three decimals. */
    static final int MAX_QUALITY = 1000;

    /** What a request without an {@code Accept} field accepts: anything, shared so such requests allocate nothing. */
    private static final MediaRanges ANYTHING =
            new MediaRanges(List.of(MediaType.parse("*/*")), new int[] {MAX_QUALITY});

    private final List<MediaType> ranges;
    private final int[] qualities;

    private MediaRanges(List<MediaType> ranges, int[] qualities) {
        this.ranges = ranges;
        this.qualities = qualities;
    }

    /**
     * The ranges of an {@code Accept} field; {@code null} or a field with no valid element accepts
     * anything. Elements that do not parse are skipped.
     */
    public static MediaRanges parseAccept(String accept) {
        if (accept == null || accept.equals("*/*")) {
            return ANYTHING;
        }
        List<MediaType> ranges = new ArrayList<>(4);
        List<Integer> qualities = new ArrayList<>(4);
        for (String element : split(accept)) {
            if (element.isBlank()) {
                continue;
            }
            try {
                MediaType range = MediaType.parse(element);
                String q = range.parameters().get("q");
                int quality = q == null ? MAX_QUALITY : qvalue(q);
                if (quality >= 0) {
                    ranges.add(range);
                    qualities.add(quality);
                }
            } catch (IllegalArgumentException e) {
                // An element we cannot read expresses no preference.
            }
        }
        if (ranges.isEmpty()) {
            return ANYTHING;
        }
        return new MediaRanges(
                ranges, qualities.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The best quality among these types, in thousandths; 0 when none is acceptable. */
    public int quality(List<MediaType> types) {
        int best = 0;
        for (MediaType type : types) {
            best = Math.max(best, quality(type));
        }
        return best;
    }

    /** The quality of the most specific range that matches the type, 0 when none does. */
    int quality(MediaType type) {
        int bestSpecificity = -1;
        int quality = 0;
        for (int i = 0; i < ranges.size(); i++) {
            MediaType range = ranges.get(i);
            int specificity = specificity(range, type);
            if (specificity > bestSpecificity) {
                bestSpecificity = specificity;
                quality = qualities[i];
            }
        }
        return quality;
    }

    /** Whether a request's {@code Content-Type} is one of these (with wildcards and required parameters). */
    public static boolean contentTypeMatches(MediaType contentType, List<MediaType> consumes) {
        for (MediaType consumed : consumes) {
            if (contentType.is(consumed) && parametersMatch(consumed.parameters(), contentType.parameters())) {
                return true;
            }
        }
        return false;
    }

    /** Whether every type {@code b} lists is also matched by one of {@code a}'s, for the route lint. */
    static boolean covers(List<MediaType> a, List<MediaType> b) {
        for (MediaType type : b) {
            if (!contentTypeMatches(type, a)) {
                return false;
            }
        }
        return true;
    }

    /** -1 when the range does not match; higher is more specific (RFC 9110, section 12.5.1). */
    private static int specificity(MediaType range, MediaType type) {
        boolean anyType = range.type().equals("*");
        boolean anySubtype = range.subtype().equals("*");
        if (!type.is(range) || (anyType && !anySubtype)) {
            return -1;
        }
        int required = range.parameters().size() - (range.parameters().containsKey("q") ? 1 : 0);
        if (required > 0 && !parametersMatch(range.parameters(), type.parameters())) {
            return -1;
        }
        return anyType ? 0 : anySubtype ? 1 : required > 0 ? 3 : 2;
    }

    private static boolean parametersMatch(Map<String, String> required, Map<String, String> actual) {
        for (Map.Entry<String, String> parameter : required.entrySet()) {
            if (parameter.getKey().equals("q")) {
                break; // Parameters after q are accept-extensions, not part of the range.
            }
            String value = actual.get(parameter.getKey());
            if (value == null || !value.equalsIgnoreCase(parameter.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** A qvalue ({@code 0(.ddd)} or {@code 1(.000)}) in thousandths, or -1 when malformed. */
    static int qvalue(String q) {
        int length = q.length();
        if (length == 0 || length > 5 || (q.charAt(0) != '0' && q.charAt(0) != '1')) {
            return -1;
        }
        int value = (q.charAt(0) - '0') * MAX_QUALITY;
        if (length > 1) {
            if (q.charAt(1) != '.') {
                return -1;
            }
            int scale = 100;
            for (int i = 2; i < length; i++, scale /= 10) {
                char c = q.charAt(i);
                if (c < '0' || c > '9') {
                    return -1;
                }
                value += (c - '0') * scale;
            }
        }
        return value > MAX_QUALITY ? -1 : value;
    }

    /** Splits a list field at commas outside quoted strings. */
    private static List<String> split(String field) {
        List<String> elements = new ArrayList<>(4);
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '\\' && quoted) {
                i++;
            } else if (c == ',' && !quoted) {
                elements.add(field.substring(start, i));
                start = i + 1;
            }
        }
        elements.add(field.substring(start));
        return elements;
    }
}
