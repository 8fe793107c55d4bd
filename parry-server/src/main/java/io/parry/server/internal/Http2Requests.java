package io.parry.server.internal;

import io.netty.handler.codec.http2.Http2Headers;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpStatus;
import io.parry.http.spi.AsciiCase;
import io.parry.server.Rejection;
import java.util.Map;

/**
 * Reads an HTTP/2 request header block into Parry's request head. Netty has checked the field names
 * and values, the pseudo-header order, the connection-specific fields and {@code TE} (RFC 9113,
 * sections 8.2 and 8.3); what it leaves is checked here.
 */
final class Http2Requests {
    private Http2Requests() {}

    /** The request's header fields: the regular fields, cookies joined, and {@code host} from {@code :authority}. */
    static HttpHeaders fields(Http2Headers headers) throws RefusedHead {
        // Sized for the usual request, four pseudo-header fields and no Host, whose fields are then the
        // regular ones and host from :authority: the headers take the builder's array without a copy.
        HttpHeaders.Builder fields = HttpHeaders.builder(Math.max(1, headers.size() - 3));
        String cookie = null;
        String host = null;
        for (Map.Entry<CharSequence, CharSequence> field : headers) {
            CharSequence name = field.getKey();
            if (name.length() > 0 && name.charAt(0) == ':') {
                continue;
            }
            String value = field.getValue().toString();
            if (AsciiCase.equalsIgnoreCase(name.toString(), "cookie")) {
                // RFC 9113, section 8.2.3: split crumbs are joined again for HTTP/1.1 semantics.
                cookie = cookie == null ? value : cookie + "; " + value;
                continue;
            }
            if (AsciiCase.equalsIgnoreCase(name.toString(), "host")) {
                host = value;
            }
            fields.add(name.toString(), value);
        }
        CharSequence authority = headers.authority();
        if (authority != null) {
            // RFC 9113, section 8.3.1: a Host naming another origin than :authority makes the request malformed.
            if (host != null && !AsciiCase.equalsIgnoreCase(host, authority.toString())) {
                throw new RefusedHead(RequestChecks.badRequest(":authority and Host differ"));
            }
            if (host == null) {
                fields.add("host", authority.toString());
            }
        }
        if (cookie != null) {
            fields.add("cookie", cookie);
        }
        try {
            return fields.build();
        } catch (IllegalArgumentException e) {
            throw new RefusedHead(RequestChecks.badRequest(e.getMessage()));
        }
    }

    /** The request, unbuilt body aside, or a refusal. */
    static HttpRequest.Builder request(Http2Headers headers, HttpHeaders fields, ServerRuntime runtime)
            throws RefusedHead {
        if (fields.size() > runtime.limits.maxHeaderCount()) {
            throw new RefusedHead(new RequestChecks.Refusal(
                    HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, Rejection.HEADERS_TOO_LARGE, "too many header fields"));
        }
        String method = headers.method().toString();
        if (method.equals("CONNECT")) {
            // RFC 9113, section 8.5: a tunnel, which Parry does not offer.
            throw new RefusedHead(
                    new RequestChecks.Refusal(HttpStatus.NOT_IMPLEMENTED, Rejection.BAD_REQUEST, "CONNECT"));
        }
        RequestChecks.Refusal host = RequestChecks.checkHost(fields, false);
        if (host != null) {
            throw new RefusedHead(host);
        }
        try {
            return HttpRequest.builder(
                            HttpMethod.of(method),
                            runtime.paths.normalize(headers.path().toString()))
                    .headers(fields);
        } catch (PathRedirect redirect) {
            throw new RefusedHead(RequestChecks.redirect(redirect.location()));
        } catch (IllegalArgumentException e) {
            throw new RefusedHead(RequestChecks.badRequest(e.getMessage()));
        }
    }

    /** The declared body length, -1 when none is declared. */
    static long contentLength(HttpHeaders fields) throws RefusedHead {
        String value = fields.get("content-length");
        if (value == null) {
            return -1;
        }
        try {
            long length = Long.parseLong(value);
            if (length < 0) {
                throw new NumberFormatException(value);
            }
            return length;
        } catch (NumberFormatException e) {
            throw new RefusedHead(RequestChecks.badRequest("invalid Content-Length"));
        }
    }

    /** A head the server answers itself, with the refusal's status. */
    static final class RefusedHead extends Exception {
        private static final long serialVersionUID = 1L;

        final transient RequestChecks.Refusal refusal;

        RefusedHead(RequestChecks.Refusal refusal) {
            super(refusal.what, null, false, false);
            this.refusal = refusal;
        }
    }
}
