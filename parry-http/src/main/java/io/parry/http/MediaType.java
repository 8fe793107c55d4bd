package io.parry.http;

import static java.util.Objects.requireNonNull;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A media type such as {@code application/json; charset=utf-8} (RFC 9110, section 8.3.1). Type,
 * subtype and parameter names are compared case-insensitively; {@link #toString()} is computed once.
 */
public final class MediaType {
    public static final MediaType PLAIN_TEXT_UTF_8 = parse("text/plain; charset=utf-8");
    public static final MediaType HTML_UTF_8 = parse("text/html; charset=utf-8");
    public static final MediaType JSON = parse("application/json");
    public static final MediaType PROBLEM_JSON = parse("application/problem+json");
    public static final MediaType OCTET_STREAM = parse("application/octet-stream");
    public static final MediaType FORM_URLENCODED = parse("application/x-www-form-urlencoded");

    private final String type;
    private final String subtype;
    private final Map<String, String> parameters;
    private final String text;

    private MediaType(String type, String subtype, Map<String, String> parameters, String text) {
        this.type = type;
        this.subtype = subtype;
        this.parameters = parameters;
        this.text = text;
    }

    /**
     * Parses a media type.
     *
     * @throws IllegalArgumentException if the text is not {@code type/subtype *(; name=value)}
     */
    public static MediaType parse(String text) {
        requireNonNull(text, "text");
        int semicolon = text.indexOf(';');
        String essence = (semicolon < 0 ? text : text.substring(0, semicolon)).trim();
        int slash = essence.indexOf('/');
        if (slash <= 0 || slash == essence.length() - 1) {
            throw invalid(text);
        }
        String type = essence.substring(0, slash).toLowerCase(Locale.ROOT);
        String subtype = essence.substring(slash + 1).toLowerCase(Locale.ROOT);
        if (!HttpTokens.isToken(type) || !HttpTokens.isToken(subtype)) {
            throw invalid(text);
        }
        Map<String, String> parameters = semicolon < 0 ? Map.of() : parameters(text, semicolon);
        return new MediaType(type, subtype, parameters, text.trim());
    }

    /**
     * Reads {@code *(; name=value)} from the semicolon on; a value is a token or a quoted-string,
     * which may hold semicolons and backslash-escaped characters (RFC 9110, section 5.6.4).
     */
    private static Map<String, String> parameters(String text, int semicolon) {
        Map<String, String> parameters = new LinkedHashMap<>();
        int length = text.length();
        int i = semicolon;
        while (i < length) {
            int nameStart = ++i;
            while (i < length && text.charAt(i) != '=' && text.charAt(i) != ';') {
                i++;
            }
            String name = text.substring(nameStart, i).trim().toLowerCase(Locale.ROOT);
            if (i == length || text.charAt(i) == ';') {
                if (!name.isEmpty()) {
                    throw invalid(text);
                }
                continue;
            }
            i = skipSpaces(text, i + 1);
            String value;
            if (i < length && text.charAt(i) == '"') {
                StringBuilder quoted = new StringBuilder();
                i = readQuoted(text, i + 1, quoted);
                i = skipSpaces(text, i);
                if (i < length && text.charAt(i) != ';') {
                    throw invalid(text);
                }
                value = quoted.toString();
            } else {
                int valueStart = i;
                while (i < length && text.charAt(i) != ';') {
                    i++;
                }
                value = text.substring(valueStart, i).trim();
            }
            if (!HttpTokens.isToken(name)) {
                throw invalid(text);
            }
            parameters.put(name, value);
        }
        return Collections.unmodifiableMap(parameters);
    }

    /** Appends the quoted-string's content that starts at {@code from}; returns the index after its closing quote. */
    private static int readQuoted(String text, int from, StringBuilder out) {
        int i = from;
        while (i < text.length()) {
            char c = text.charAt(i++);
            if (c == '"') {
                return i;
            }
            if (c == '\\') {
                if (i == text.length()) {
                    break;
                }
                c = text.charAt(i++);
            }
            out.append(c);
        }
        throw invalid(text);
    }

    private static int skipSpaces(String text, int from) {
        int i = from;
        while (i < text.length() && text.charAt(i) <= ' ') {
            i++;
        }
        return i;
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("media type: " + text + " (expected: type/subtype *(; name=value))");
    }

    /** The top-level type in lower case, for example {@code application}. */
    public String type() {
        return type;
    }

    /** The subtype in lower case, for example {@code json}. */
    public String subtype() {
        return subtype;
    }

    /** The parameters, names in lower case, in the order given. */
    public Map<String, String> parameters() {
        return parameters;
    }

    /** The {@code charset} parameter, when there is one that this JVM supports. */
    public Optional<Charset> charset() {
        String name = parameters.get("charset");
        try {
            return name != null && Charset.isSupported(name) ? Optional.of(Charset.forName(name)) : Optional.empty();
        } catch (IllegalCharsetNameException e) {
            return Optional.empty();
        }
    }

    /** Whether this type, without parameters, equals the other's, with {@code *} matching anything. */
    public boolean is(MediaType other) {
        return (other.type.equals("*") || other.type.equals(type))
                && (other.subtype.equals("*") || other.subtype.equals(subtype));
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof MediaType)) {
            return false;
        }
        MediaType other = (MediaType) o;
        return type.equals(other.type) && subtype.equals(other.subtype) && parameters.equals(other.parameters);
    }

    @Override
    public int hashCode() {
        return (type.hashCode() * 31 + subtype.hashCode()) * 31 + parameters.hashCode();
    }

    /** The media type as it is written in a {@code Content-Type} field. */
    @Override
    public String toString() {
        return text;
    }
}
