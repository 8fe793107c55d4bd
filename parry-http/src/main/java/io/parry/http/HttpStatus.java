package io.parry.http;

/**
 * An HTTP response status code with its reason phrase. Common codes are constants; {@link #of(int)}
 * returns them and makes a value for any other code from 100 to 999.
 */
public final class HttpStatus {
    private static final HttpStatus[] KNOWN = new HttpStatus[600];

    public static final HttpStatus CONTINUE = known(100, "Continue");
    public static final HttpStatus SWITCHING_PROTOCOLS = known(101, "Switching Protocols");
    public static final HttpStatus OK = known(200, "OK");
    public static final HttpStatus CREATED = known(201, "Created");
    public static final HttpStatus ACCEPTED = known(202, "Accepted");
    public static final HttpStatus NO_CONTENT = known(204, "No Content");
    public static final HttpStatus PARTIAL_CONTENT = known(206, "Partial Content");
    public static final HttpStatus MOVED_PERMANENTLY = known(301, "Moved Permanently");
    public static final HttpStatus FOUND = known(302, "Found");
    public static final HttpStatus SEE_OTHER = known(303, "See Other");
    public static final HttpStatus NOT_MODIFIED = known(304, "Not Modified");
    public static final HttpStatus TEMPORARY_REDIRECT = known(307, "Temporary Redirect");
    public static final HttpStatus PERMANENT_REDIRECT = known(308, "Permanent Redirect");
    public static final HttpStatus BAD_REQUEST = known(400, "Bad Request");
    public static final HttpStatus UNAUTHORIZED = known(401, "Unauthorized");
    public static final HttpStatus FORBIDDEN = known(403, "Forbidden");
    public static final HttpStatus NOT_FOUND = known(404, "Not Found");
    public static final HttpStatus METHOD_NOT_ALLOWED = known(405, "Method Not Allowed");
    public static final HttpStatus NOT_ACCEPTABLE = known(406, "Not Acceptable");
    public static final HttpStatus REQUEST_TIMEOUT = known(408, "Request Timeout");
    public static final HttpStatus CONFLICT = known(409, "Conflict");
    public static final HttpStatus GONE = known(410, "Gone");
    public static final HttpStatus LENGTH_REQUIRED = known(411, "Length Required");
    public static final HttpStatus PRECONDITION_FAILED = known(412, "Precondition Failed");
    public static final HttpStatus CONTENT_TOO_LARGE = known(413, "Content Too Large");
    public static final HttpStatus URI_TOO_LONG = known(414, "URI Too Long");
    public static final HttpStatus UNSUPPORTED_MEDIA_TYPE = known(415, "Unsupported Media Type");
    public static final HttpStatus EXPECTATION_FAILED = known(417, "Expectation Failed");
    public static final HttpStatus MISDIRECTED_REQUEST = known(421, "Misdirected Request");
    public static final HttpStatus UNPROCESSABLE_CONTENT = known(422, "Unprocessable Content");
    public static final HttpStatus TOO_MANY_REQUESTS = known(429, "Too Many Requests");
    public static final HttpStatus REQUEST_HEADER_FIELDS_TOO_LARGE = known(431, "Request Header Fields Too Large");
    public static final HttpStatus INTERNAL_SERVER_ERROR = known(500, "Internal Server Error");
    public static final HttpStatus NOT_IMPLEMENTED = known(501, "Not Implemented");
    public static final HttpStatus BAD_GATEWAY = known(502, "Bad Gateway");
    public static final HttpStatus SERVICE_UNAVAILABLE = known(503, "Service Unavailable");
    public static final HttpStatus GATEWAY_TIMEOUT = known(504, "Gateway Timeout");
    public static final HttpStatus HTTP_VERSION_NOT_SUPPORTED = known(505, "HTTP Version Not Supported");

    private final int code;
    private final String reasonPhrase;

    private HttpStatus(int code, String reasonPhrase) {
        this.code = code;
        this.reasonPhrase = reasonPhrase;
    }

    private static HttpStatus known(int code, String reasonPhrase) {
        HttpStatus status = new HttpStatus(code, reasonPhrase);
        KNOWN[code] = status;
        return status;
    }

    /**
     * Returns the status for this code.
     *
     * @throws IllegalArgumentException if the code is not within 100 to 999
     */
    public static HttpStatus of(int code) {
        if (code < 100 || code > 999) {
            throw new IllegalArgumentException("code: " + code + " (expected: 100 to 999)");
        }
        HttpStatus known = code < KNOWN.length ? KNOWN[code] : null;
        return known != null ? known : new HttpStatus(code, classPhrase(code));
    }

    private static String classPhrase(int code) {
        switch (code / 100) {
            case 1:
                return "Informational";
            case 2:
                return "Success";
            case 3:
                return "Redirection";
            case 4:
                return "Client Error";
            case 5:
                return "Server Error";
            default:
                return "Unknown";
        }
    }

    /** The three-digit code. */
    public int code() {
        return code;
    }

    /** The reason phrase, for example {@code Not Found}. */
    public String reasonPhrase() {
        return reasonPhrase;
    }

    /** Whether this is a 1xx status, which never carries a body. */
    public boolean isInformational() {
        return code < 200;
    }

    /** Whether a response with this status never carries a body (1xx, 204 and 304; RFC 9110, section 6.4.1). */
    public boolean forbidsBody() {
        return code < 200 || code == 204 || code == 304;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HttpStatus && ((HttpStatus) o).code == code;
    }

    @Override
    public int hashCode() {
        return code;
    }

    @Override
    public String toString() {
        return code + " " + reasonPhrase;
    }
}
