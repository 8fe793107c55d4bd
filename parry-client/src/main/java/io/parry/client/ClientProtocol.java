package io.parry.client;

/**
 * The HTTP version a client speaks to its endpoints.
 *
 * <ul>
 *   <li>{@link #HTTP1}: HTTP/1.1 (the default); over TLS, ALPN offers {@code http/1.1} only;
 *   <li>{@link #H2}: HTTP/2 over TLS, ALPN offering {@code h2} then {@code http/1.1}, so an endpoint
 *       that picks HTTP/1.1 is still served; to a cleartext endpoint, HTTP/2 with prior knowledge;
 *   <li>{@link #H2C}: HTTP/2 with prior knowledge (RFC 9113, section 3.3) to cleartext endpoints, as
 *       {@link #H2} over TLS.
 * </ul>
 *
 * The {@code Upgrade: h2c} mechanism is never used: RFC 9113, section 3.1 deprecates it.
 */
public enum ClientProtocol {
    /** HTTP/1.1. */
    HTTP1,
    /** HTTP/2 over TLS chosen by ALPN, or with prior knowledge in cleartext. */
    H2,
    /** HTTP/2 with prior knowledge in cleartext. */
    H2C
}
