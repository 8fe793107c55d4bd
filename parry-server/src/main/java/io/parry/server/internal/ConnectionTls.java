package io.parry.server.internal;

import io.parry.server.TlsInfo;
import io.parry.transport.spi.tls.ServerCertificate;

/**
 * The TLS of one connection: what its handshake settled, and the certificate it was given when the
 * listener has several, so a request for a host that certificate does not cover is refused (421);
 * {@code certificate} is {@code null} when the listener has one.
 */
record ConnectionTls(TlsInfo info, ServerCertificate certificate) {
    static final String HTTP_1_1 = "http/1.1";

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
