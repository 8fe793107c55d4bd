package io.parry.client;

import static java.util.Objects.requireNonNull;

/**
 * One upstream instance: a host name or address, a port, whether it speaks TLS, and a weight for
 * weighted balancing. Two endpoints with the same origin (scheme, host and port) share connection
 * pools whatever their weights.
 *
 * <pre>{@code
 * Endpoint a = Endpoint.of("10.0.0.7", 8080);
 * Endpoint b = Endpoint.parse("api.internal:9000").withWeight(3);
 * Endpoint c = Endpoint.parse("https://api.example.com"); // port 443, TLS
 * }</pre>
 */
public final class Endpoint {
    private final String host;
    private final int port;
    private final int weight;
    private final boolean secure;
    /** Built once: most calls use it as their {@code Host} field. */
    private final String authority;
    /** Built once: every call uses it as its pool key. */
    private final String origin;

    private Endpoint(String host, int port, int weight, boolean secure) {
        this.host = host;
        this.port = port;
        this.weight = weight;
        this.secure = secure;
        this.authority = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        this.origin = (secure ? "https://" : "http://") + authority;
    }

    /**
     * An endpoint with weight 1.
     *
     * @throws IllegalArgumentException if the host is blank or the port is outside 1..65535
     */
    public static Endpoint of(String host, int port) {
        requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host: blank (expected: a host name or address)");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 1..65535)");
        }
        return new Endpoint(stripBrackets(host), port, 1, false);
    }

    /**
     * Parses {@code host:port}, {@code [v6]:port}, or an {@code http://host:port} or {@code
     * https://host:port} URL (a path is not allowed); the port defaults to 80, or 443 for {@code https}.
     *
     * @throws IllegalArgumentException if the text is not such an address
     */
    public static Endpoint parse(String address) {
        requireNonNull(address, "address");
        boolean secure = address.startsWith("https://");
        Endpoint endpoint = parseAuthority(
                address, address.substring(secure ? 8 : address.startsWith("http://") ? 7 : 0), secure ? 443 : 80);
        return secure ? endpoint.withSecure(true) : endpoint;
    }

    private static Endpoint parseAuthority(String address, String authority, int defaultPort) {
        String rest = authority;
        if (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        if (rest.isEmpty() || rest.indexOf('/') >= 0 || rest.contains("://")) {
            throw new IllegalArgumentException(
                    "address: " + address + " (expected: host:port, http://host:port or https://host:port)");
        }
        int colon = rest.lastIndexOf(':');
        boolean bracketed = rest.startsWith("[");
        if (colon < 0 || (bracketed && colon < rest.indexOf(']'))) {
            return of(rest, defaultPort);
        }
        try {
            return of(rest.substring(0, colon), Integer.parseInt(rest.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("address: " + address + " (expected: a numeric port)");
        }
    }

    /**
     * This endpoint with another weight.
     *
     * @throws IllegalArgumentException if the weight is not positive
     */
    public Endpoint withWeight(int weight) {
        if (weight < 1) {
            throw new IllegalArgumentException("weight: " + weight + " (expected: > 0)");
        }
        return new Endpoint(host, port, weight, secure);
    }

    /** This endpoint speaking TLS, or cleartext. */
    public Endpoint withSecure(boolean secure) {
        return secure == this.secure ? this : new Endpoint(host, port, weight, secure);
    }

    /** The host name or address, without brackets for IPv6. */
    public String host() {
        return host;
    }

    /** The port. */
    public int port() {
        return port;
    }

    /** The weight for weighted balancing; 1 unless set. */
    public int weight() {
        return weight;
    }

    /** Whether the endpoint speaks TLS ({@link ClientOptions#tls()}). */
    public boolean secure() {
        return secure;
    }

    /** The endpoint's origin: {@code http://host:port} or {@code https://host:port} (RFC 6454). */
    public String origin() {
        return origin;
    }

    /** The {@code Host} header value for this endpoint: {@code host:port}, IPv6 in brackets. */
    public String authority() {
        return authority;
    }

    /** Whether the other endpoint names the same scheme, host and port, whatever its weight. */
    public boolean sameAddress(Endpoint other) {
        return host.equals(other.host) && port == other.port && secure == other.secure;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Endpoint
                && ((Endpoint) o).host.equals(host)
                && ((Endpoint) o).port == port
                && ((Endpoint) o).weight == weight
                && ((Endpoint) o).secure == secure;
    }

    @Override
    public int hashCode() {
        // Objects.hash(host, port, weight) without its array and boxes: endpoints key per-call lookups.
        return 31 * (31 * (31 * (31 + host.hashCode()) + port) + weight) + (secure ? 1 : 0);
    }

    @Override
    public String toString() {
        String address = secure ? origin : authority;
        return weight == 1 ? address : address + " weight " + weight;
    }

    private static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
