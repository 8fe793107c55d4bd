package io.parry.proxy.internal;

import io.parry.http.HttpHeaders;
import io.parry.http.spi.AsciiCase;

/**
 * The header fields that describe one connection and so must not be forwarded (RFC 9110, section
 * 7.6.1): {@code Connection} and every field it names, and the fields that are hop-by-hop by
 * definition or by long practice ({@code Keep-Alive}, {@code Proxy-Connection}), and {@code
 * HTTP2-Settings}, which belongs to the {@code Upgrade: h2c} of one connection (RFC 9113, section
 * 3.1: the upgrade is deprecated and never forwarded).
 */
public final class HopByHopHeaders {
    private HopByHopHeaders() {}

    /** These headers without hop-by-hop fields, or the same instance when there are none. */
    public static HttpHeaders remove(HttpHeaders headers) {
        if (!hasAny(headers)) {
            return headers;
        }
        boolean hasConnection = headers.contains("connection");
        HttpHeaders.Builder kept = headers.toBuilder();
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            if (isHopByHop(headers, name, hasConnection)) {
                kept.remove(name);
            }
        }
        return kept.build();
    }

    /**
     * Whether the field of this name in these headers is hop-by-hop: always so, or named by their
     * {@code Connection} field; {@code hasConnection} says whether they have one, so a caller checking
     * every field looks for it once.
     */
    public static boolean isHopByHop(HttpHeaders headers, String name, boolean hasConnection) {
        return isAlwaysHopByHop(name) || (hasConnection && isNamedByConnection(headers, name));
    }

    /** Whether a field of this name is hop-by-hop whatever {@code Connection} says; case-insensitive. */
    public static boolean isAlwaysHopByHop(String name) {
        switch (name.length()) {
            case 2:
                return AsciiCase.equalsIgnoreCase(name, "te");
            case 7:
                return AsciiCase.equalsIgnoreCase(name, "trailer") || AsciiCase.equalsIgnoreCase(name, "upgrade");
            case 10:
                return AsciiCase.equalsIgnoreCase(name, "connection") || AsciiCase.equalsIgnoreCase(name, "keep-alive");
            case 14:
                return AsciiCase.equalsIgnoreCase(name, "http2-settings");
            case 16:
                return AsciiCase.equalsIgnoreCase(name, "proxy-connection");
            case 17:
                // The body is forwarded as a stream and framed afresh on each hop (RFC 9112, section 6.1).
                return AsciiCase.equalsIgnoreCase(name, "transfer-encoding");
            case 18:
                return AsciiCase.equalsIgnoreCase(name, "proxy-authenticate");
            case 19:
                return AsciiCase.equalsIgnoreCase(name, "proxy-authorization");
            default:
                return false;
        }
    }

    /**
     * Whether the field is {@code TE: trailers}, which a proxy forwards although {@code TE} is
     * hop-by-hop: it says the client reads trailers, gRPC requires it end to end, and it is the one
     * {@code TE} value HTTP/2 allows (RFC 9113, section 8.2.2).
     */
    public static boolean isTeTrailers(String name, String value) {
        return name.length() == 2
                && AsciiCase.equalsIgnoreCase(name, "te")
                && AsciiCase.equalsIgnoreCase(value.trim(), "trailers");
    }

    private static boolean hasAny(HttpHeaders headers) {
        for (int i = 0; i < headers.size(); i++) {
            // A field named by Connection can only be present alongside Connection, which is itself hop-by-hop.
            if (isAlwaysHopByHop(headers.name(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Content-Length describes the body, which is forwarded unchanged, so a Connection option cannot
     * remove it (RFC 9110, section 7.6.1: a connection option must not name a field meant for all
     * recipients).
     */
    private static boolean isNamedByConnection(HttpHeaders headers, String name) {
        return !AsciiCase.equalsIgnoreCase(name, "content-length") && headers.containsValue("connection", name);
    }
}
