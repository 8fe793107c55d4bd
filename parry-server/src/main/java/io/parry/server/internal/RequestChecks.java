package io.parry.server.internal;

import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.spi.AsciiCase;
import io.parry.server.Rejection;
import io.parry.server.RequestLimits;

/**
 * The checks a decoded request head must pass before any handler sees it, beyond what the decoder
 * enforces. Each failed check names its status and {@link Rejection}.
 */
final class RequestChecks {
    private RequestChecks() {}

    /**
     * A refusal: status, reason and a short description for the debug log; or a redirect, which has a
     * location and no reason, as nothing was wrong with the request but its spelling.
     */
    static final class Refusal {
        final HttpStatus status;
        final Rejection reason;
        final String what;
        final String location;

        Refusal(HttpStatus status, Rejection reason, String what) {
            this(status, reason, what, null);
        }

        private Refusal(HttpStatus status, Rejection reason, String what, String location) {
            this.status = status;
            this.reason = reason;
            this.what = what;
            this.location = location;
        }

        HttpResponse response(Exchange exchange) {
            return location == null
                    ? ErrorResponses.problem(exchange, status, what)
                    : HttpResponse.of(status).withHeader("location", location);
        }
    }

    /** Maps a decoder failure to its status: 414 for the request line, 431 for the header block, else 400. */
    static Refusal decoderFailure(DecoderResult result) {
        Throwable cause = result.cause();
        if (cause instanceof TooLongHttpLineException) {
            return new Refusal(HttpStatus.URI_TOO_LONG, Rejection.URI_TOO_LONG, "request line too long");
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return new Refusal(
                    HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, Rejection.HEADERS_TOO_LARGE, "header block too large");
        }
        if (cause instanceof TooLongFrameException) {
            return new Refusal(HttpStatus.BAD_REQUEST, Rejection.BAD_REQUEST, "frame too long");
        }
        return badRequest(cause == null ? "malformed request" : cause.getMessage());
    }

    /**
     * Maps a failure decoding a request body to its status. The decoder reads a chunk-size line with
     * the request line's length limit, but an over-long one (a chunk extension, usually) is a
     * malformed body, not a long URI: 400, where the request line's 414 would mislead.
     */
    static Refusal bodyDecoderFailure(DecoderResult result) {
        if (result.cause() instanceof TooLongHttpLineException) {
            return badRequest("chunk-size line too long");
        }
        return decoderFailure(result);
    }

    /** Checks a request head the decoder accepted; {@code null} when it may proceed. */
    static Refusal check(HttpRequest request, RequestLimits limits) {
        HttpHeaders headers = request.headers();
        if (headers.size() > limits.maxHeaderCount()) {
            return new Refusal(
                    HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, Rejection.HEADERS_TOO_LARGE, "too many header fields");
        }
        boolean http11 = request.protocolVersion().equals(HttpVersion.HTTP_1_1);
        if (!http11 && !request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            return new Refusal(HttpStatus.HTTP_VERSION_NOT_SUPPORTED, Rejection.BAD_REQUEST, "unsupported version");
        }
        // RFC 9112, section 6.1: Transfer-Encoding in an HTTP/1.0 message means its framing is faulty.
        if (!http11 && headers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            return badRequest("Transfer-Encoding in an HTTP/1.0 request");
        }
        return checkTransferCodings(headers);
    }

    /**
     * The decoder has made sure chunked is the last coding (RFC 9112, section 6.3); any coding
     * before it is one Parry does not decode, and a proxy would pass the coded bytes on as if they
     * were plain: 501, as RFC 9112, section 6.1 asks.
     */
    private static Refusal checkTransferCodings(HttpHeaders headers) {
        if (!headers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            return null;
        }
        int codings = 0;
        for (String value : headers.getAll(HttpHeaderNames.TRANSFER_ENCODING)) {
            int start = 0;
            while (start <= value.length()) {
                int comma = value.indexOf(',', start);
                int end = comma < 0 ? value.length() : comma;
                if (!value.substring(start, end).trim().equalsIgnoreCase("chunked")) {
                    return new Refusal(
                            HttpStatus.NOT_IMPLEMENTED, Rejection.BAD_REQUEST, "unsupported transfer coding");
                }
                codings++;
                start = end + 1;
            }
        }
        return codings == 1 ? null : badRequest("chunked applied more than once");
    }

    /** RFC 9112, section 3.2: exactly one Host field in HTTP/1.1 (at most one in 1.0), and a plausible value. */
    static Refusal checkHost(io.parry.http.HttpHeaders headers, boolean http11) {
        return checkHost(headers, http11, null);
    }

    /**
     * As {@link #checkHost(io.parry.http.HttpHeaders, boolean)}, where {@code knownValid} is a value found valid
     * before (or {@code null}): the same text again needs no second look.
     */
    static Refusal checkHost(io.parry.http.HttpHeaders headers, boolean http11, String knownValid) {
        String host = null;
        for (int i = 0; i < headers.size(); i++) {
            if (AsciiCase.equalsIgnoreCase(headers.name(i), "host")) {
                if (host != null) {
                    return badRequest("more than one Host field");
                }
                host = headers.value(i);
            }
        }
        if (host == null) {
            return http11 ? badRequest("no Host field in an HTTP/1.1 request") : null;
        }
        return host.equals(knownValid) || isValidHost(host) ? null : badRequest("invalid Host field");
    }

    /** RFC 9113, section 8.3.1: at most one Host field, with a plausible value; {@code host} is {@code null} without one. */
    static Refusal checkHost(String host, boolean repeated) {
        if (repeated) {
            return badRequest("more than one Host field");
        }
        return host == null || isValidHost(host) ? null : badRequest("invalid Host field");
    }

    /**
     * RFC 9110, section 7.2 and RFC 3986, section 3.2: {@code uri-host [ ":" port ]}, where the host is
     * a bracketed IP literal or a reg-name (IPv4 included) and the port is digits. A value that a
     * route's host condition and the upstream could read differently is refused.
     */
    private static boolean isValidHost(String host) {
        int end = host.length();
        int index = 0;
        if (end > 0 && host.charAt(0) == '[') {
            int close = host.indexOf(']');
            if (close < 0) {
                return false;
            }
            for (index = 1; index < close; index++) {
                char c = host.charAt(index);
                if (c != ':' && !isRegNameChar(c)) {
                    return false;
                }
            }
            index = close + 1;
        } else {
            while (index < end && host.charAt(index) != ':') {
                if (!isRegNameChar(host.charAt(index))) {
                    return false;
                }
                index++;
            }
        }
        if (index == end) {
            return true;
        }
        if (host.charAt(index) != ':') {
            return false;
        }
        for (index++; index < end; index++) {
            char c = host.charAt(index);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** Envoy's {@code UNESCAPE_AND_REDIRECT}: 307 keeps the method and body (RFC 9110, section 15.4.8). */
    static Refusal redirect(String location) {
        return new Refusal(HttpStatus.TEMPORARY_REDIRECT, null, "path redirected", location);
    }

    /** Unreserved, sub-delims and {@code %} of a percent-encoding (RFC 3986, section 3.2.2). */
    private static boolean isRegNameChar(char c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            return true;
        }
        switch (c) {
            case '-', '.', '_', '~', '%', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=':
                return true;
            default:
                return false;
        }
    }

    static Refusal badRequest(String what) {
        return new Refusal(HttpStatus.BAD_REQUEST, Rejection.BAD_REQUEST, what);
    }
}
