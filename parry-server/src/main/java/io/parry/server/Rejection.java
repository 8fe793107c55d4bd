package io.parry.server;

/**
 * Why the server refused a request or a connection before any handler ran. Each rejection is
 * counted ({@link Server#rejections(Rejection)}) and logged once at debug level.
 */
public enum Rejection {
    /** Malformed or hostile HTTP: answered 400, then the connection closes. */
    BAD_REQUEST,
    /** The request line was longer than allowed: 414, then close. */
    URI_TOO_LONG,
    /** The header block was too large or had too many fields: 431, then close. */
    HEADERS_TOO_LARGE,
    /** The declared or received body was larger than allowed: 413, then close. */
    CONTENT_TOO_LARGE,
    /** An {@code Expect} value other than {@code 100-continue}: 417, then close. */
    EXPECTATION_FAILED,
    /** The header block did not arrive in time (slowloris): 408, then close. */
    HEADER_READ_TIMEOUT,
    /** The response was not started in time: 408 if the body was still arriving, else 503; then close. */
    REQUEST_TIMEOUT,
    /** The client did not read the response in time: the connection is closed. */
    WRITE_TIMEOUT,
    /** The server already had as many connections as allowed: the new one is closed at once. */
    TOO_MANY_CONNECTIONS,
    /**
     * A connection could not be accepted for want of file descriptors ({@code EMFILE}, {@code ENFILE}):
     * it waits in the listen backlog while accepting pauses for a second; reported at most every ten
     * seconds at WARN on {@code io.parry.server.Server}.
     */
    NO_FILE_DESCRIPTORS,
    /** The worker executor was full: 503 at once. */
    WORKERS_BUSY,
    /**
     * The TLS handshake failed or did not finish in time (bytes that are not TLS, no shared protocol or
     * cipher, a client certificate missing or not trusted): the connection is closed.
     */
    TLS_HANDSHAKE,
    /**
     * The request's host is not covered by the certificate its connection was given, on a listener with
     * several: 421 (RFC 9110, section 15.5.20), then close, so the client connects again for that host.
     */
    MISDIRECTED_REQUEST,
    /** An HTTP/2 client broke the protocol in a way that ends its connection: GOAWAY, then close. */
    HTTP2_PROTOCOL_ERROR,
    /** An HTTP/2 client reset too many streams (rapid reset, CVE-2023-44487): GOAWAY, then close. */
    HTTP2_RAPID_RESET,
    /**
     * An HTTP/2 client made the server reset too many streams (MadeYouReset, CVE-2025-8671): GOAWAY,
     * then close.
     */
    HTTP2_CAUSED_RESETS,
    /** An HTTP/2 client sent too many small CONTINUATION frames in a row: GOAWAY, then close. */
    HTTP2_CONTINUATION_FLOOD,
    /** An HTTP/2 header block decoded far past the header list limit (an HPACK bomb): GOAWAY, then close. */
    HTTP2_HEADER_BOMB,
    /** An HTTP/2 client sent too many PING or SETTINGS frames, or did not read their answers: GOAWAY, then close. */
    HTTP2_CONTROL_FLOOD,
    /** An HTTP/2 client sent too many empty DATA frames in a row: GOAWAY, then close. */
    HTTP2_EMPTY_FRAME_FLOOD,
    /**
     * An HTTP/2 client kept a flow-control window at zero past the stall timeout: the stream is
     * reset, or for the connection window GOAWAY, then close.
     */
    HTTP2_FLOW_CONTROL_STALL
}
