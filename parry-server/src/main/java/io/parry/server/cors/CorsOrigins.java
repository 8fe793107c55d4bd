package io.parry.server.cors;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Checks configured origins once, in {@code build()}, and writes them the way a browser serializes an
 * origin (Fetch, "serialization of an origin"; RFC 6454, section 6.2): lower-case scheme and host, no
 * default port, no path. A browser's {@code Origin} field is then looked up as is.
 */
final class CorsOrigins {
    private CorsOrigins() {}

    /**
     * The origin in serialized form.
     *
     * @throws IllegalArgumentException if it is not {@code scheme://host[:port]}
     */
    static String normalize(String origin) {
        if (origin.equals("*")) {
            throw invalid(origin, "; use allowAnyOrigin()");
        }
        if (origin.equals("null")) {
            throw invalid(origin, "; the opaque origin null is never allowed by name");
        }
        URI uri;
        try {
            uri = new URI(origin);
        } catch (URISyntaxException e) {
            throw invalid(origin, "");
        }
        if (uri.getScheme() == null
                || uri.getHost() == null
                || uri.getRawUserInfo() != null
                || !uri.getRawPath().isEmpty()
                || uri.getRawQuery() != null
                || uri.getRawFragment() != null
                || origin.endsWith(":")) {
            throw invalid(origin, "");
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        int port = uri.getPort();
        boolean defaultPort = port == -1 || port == defaultPort(scheme);
        return scheme + "://" + host + (defaultPort ? "" : ":" + port);
    }

    private static int defaultPort(String scheme) {
        switch (scheme) {
            case "http":
            case "ws":
                return 80;
            case "https":
            case "wss":
                return 443;
            default:
                return -2;
        }
    }

    private static IllegalArgumentException invalid(String origin, String hint) {
        return new IllegalArgumentException(
                "allowOrigins: " + origin + " (expected: scheme://host[:port] without a path" + hint + ")");
    }
}
