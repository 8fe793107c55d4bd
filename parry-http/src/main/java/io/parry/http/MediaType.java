package io.parry.http;

import static java.util.Objects.requireNonNull;

import java.nio.charset.Charset;
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

    private static Map<String, String> parameters(String text, int semicolon) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String part : text.substring(semicolon + 1).split(";")) {
            String parameter = part.trim();
            if (parameter.isEmpty()) {
                continue;
            }
            int equals = parameter.indexOf('=');
            if (equals <= 0) {
                throw invalid(text);
            }
            String name = parameter.substring(0, equals).trim().toLowerCase(Locale.ROOT);
            String value = unquote(parameter.substring(equals + 1).trim());
            if (!HttpTokens.isToken(name)) {
                throw invalid(text);
            }
            parameters.put(name, value);
        }
        return Collections.unmodifiableMap(parameters);
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"'
                ? value.substring(1, value.length() - 1)
                : value;
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

    /** The {@code charset} parameter, when there is one. */
    public Optional<Charset> charset() {
        String name = parameters.get("charset");
        return name == null ? Optional.empty() : Optional.of(Charset.forName(name));
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
