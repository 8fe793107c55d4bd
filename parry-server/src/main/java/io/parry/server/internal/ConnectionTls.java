package io.parry.server.internal;

import io.parry.http.HttpStatus;
import io.parry.server.Rejection;
import io.parry.server.TlsInfo;
import io.parry.transport.spi.tls.ServerCertificate;

/**
 * The TLS of one connection: what its handshake settled, and the certificate it was given when the
 * listener has several, so a request for a host that certificate does not cover is refused (421);
 * {@code certificate} is {@code null} when the listener has one.
 */
record ConnectionTls(TlsInfo info, ServerCertificate certificate) {
    static final String HTTP_1_1 = "http/1.1";
    static final String H2 = "h2";

    /**
     * The 421 refusal of a request whose {@code Host} ({@code host[:port]}, or {@code null} when it has
     * none) the connection's certificate does not cover, or {@code null} when it may proceed.
     */
    RequestChecks.Refusal misdirected(String hostHeader) {
        if (certificate == null || hostHeader == null || covers(hostHeader)) {
            return null;
        }
        return new RequestChecks.Refusal(
                HttpStatus.MISDIRECTED_REQUEST,
                Rejection.MISDIRECTED_REQUEST,
                "host not covered by the connection's certificate");
    }

    /** Whether a request with this {@code Host} value ({@code host[:port]}) is for this connection. */
    boolean covers(String hostHeader) {
        return certificate == null || certificate.covers(hostOf(hostHeader));
    }

    private static String hostOf(String hostHeader) {
        if (hostHeader.startsWith("[")) {
            int close = hostHeader.indexOf(']');
            return hostHeader.substring(1, close < 0 ? hostHeader.length() : close);
        }
        int colon = hostHeader.lastIndexOf(':');
        return colon < 0 ? hostHeader : hostHeader.substring(0, colon);
    }
}
