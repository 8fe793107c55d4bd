package io.parry.server.internal;

import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.HttpStatus;
import io.parry.http.spi.AsciiCase;
import io.parry.http.spi.CheckedFields;
import io.parry.server.Rejection;
import java.util.Arrays;
import java.util.Map;

/**
 * Reads HTTP/2 request header blocks into Parry's request heads, one connection's, one block at a
 * time. Netty has checked the field names and values, the pseudo-header order, the connection-specific
 * fields and {@code TE} (RFC 9113, sections 8.2 and 8.3): the fields are taken as they are, in one pass
 * that also notes the few a request's framing asks about; what Netty leaves is checked here.
 *
 * <p>A client sends nearly the same block on every stream: the method, the normalised path and the
 * Host found valid are kept from the last block and given again when the same text comes again,
 * instead of being parsed and checked per stream. A field sent as a reference to HPACK's tables (RFC
 * 7541, section 6.1) comes as the same {@link AsciiString} each time, and one sent as a literal
 * without indexing (as h2load and nghttp2 send {@code :path}) as a new copy, compared byte by byte.
 */
final class Http2Requests {
    private static final AsciiString COOKIE = AsciiString.cached("cookie");
    private static final AsciiString HOST = AsciiString.cached("host");
    private static final AsciiString CONTENT_LENGTH = AsciiString.cached("content-length");
    private static final AsciiString EXPECT = AsciiString.cached("expect");
    private static final AsciiString CONNECT = AsciiString.cached("CONNECT");

    /** Of the block read last: its Host (or {@code :authority}), Content-Length and Expect values, or {@code null}. */
    private String host;

    private String contentLength;
    private String expect;
    private boolean repeatedHost;

    /** The last Host found valid: the same {@code String} again needs no second look. */
    private String validHost;
    /** The {@code :method} of an earlier block and its method. */
    private CharSequence methodEntry;

    private HttpMethod method;
    /** The {@code :path} of an earlier block that normalised without a refusal, and its path. */
    private CharSequence pathEntry;

    private String path;

    /**
     * The block's header fields: the regular fields, cookies joined, and {@code host} from {@code
     * :authority}; {@code decoded} when the block came through HPACK, whose decoder checked it, else
     * (a request upgraded from HTTP/1.1) the fields are checked here.
     */
    HttpHeaders fields(Http2Headers headers, boolean decoded) throws RefusedHead {
        host = null;
        contentLength = null;
        expect = null;
        repeatedHost = false;
        // Room for the usual request, four pseudo-header fields and no Host, whose fields are then the
        // regular ones and host from :authority.
        String[] entries = new String[2 * Math.max(1, headers.size() - 3)];
        int size = 0;
        String cookie = null;
        for (Map.Entry<CharSequence, CharSequence> field : headers) {
            CharSequence name = field.getKey();
            if (name.length() > 0 && name.charAt(0) == ':') {
                continue;
            }
            String value = field.getValue().toString();
            // HPACK names are lower case (RFC 9113, section 8.2.1, which Netty enforces).
            if (AsciiString.contentEquals(name, COOKIE)) {
                // RFC 9113, section 8.2.3: split crumbs are joined again for HTTP/1.1 semantics.
                cookie = cookie == null ? value : cookie + "; " + value;
                continue;
            }
            noteFraming(name, value);
            entries = add(entries, size++, name.toString(), value);
        }
        CharSequence authority = headers.authority();
        if (authority != null) {
            // RFC 9113, section 8.3.1: a Host naming another origin than :authority makes the request malformed.
            if (host != null && !AsciiCase.equalsIgnoreCase(host, authority.toString())) {
                throw new RefusedHead(RequestChecks.badRequest(":authority and Host differ"));
            }
            if (host == null) {
                host = authority.toString();
                entries = add(entries, size++, "host", host);
            }
        }
        if (cookie != null) {
            entries = add(entries, size++, "cookie", cookie);
        }
        return decoded ? CheckedFields.of(entries, size) : checked(entries, size);
    }

    private static HttpHeaders checked(String[] entries, int size) throws RefusedHead {
        HttpHeaders.Builder fields = HttpHeaders.builder(size);
        try {
            for (int i = 0; i < size; i++) {
                fields.add(entries[2 * i], entries[2 * i + 1]);
            }
        } catch (IllegalArgumentException e) {
            throw new RefusedHead(RequestChecks.badRequest(e.getMessage()));
        }
        return fields.build();
    }

    private void noteFraming(CharSequence name, String value) {
        if (AsciiString.contentEquals(name, HOST)) {
            repeatedHost |= host != null;
            host = value;
        } else if (AsciiString.contentEquals(name, CONTENT_LENGTH) && contentLength == null) {
            contentLength = value;
        } else if (AsciiString.contentEquals(name, EXPECT)) {
            expect = value;
        }
    }

    private static String[] add(String[] entries, int index, String name, String value) {
        String[] room = 2 * index + 2 > entries.length ? Arrays.copyOf(entries, 2 * entries.length) : entries;
        room[2 * index] = name;
        room[2 * index + 1] = value;
        return room;
    }

    /** The request of the block whose {@link #fields} these are, unbuilt body aside, or a refusal. */
    HttpRequest.Builder request(Http2Headers headers, HttpHeaders fields, ServerRuntime runtime) throws RefusedHead {
        if (fields.size() > runtime.limits.maxHeaderCount()) {
            throw new RefusedHead(new RequestChecks.Refusal(
                    HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, Rejection.HEADERS_TOO_LARGE, "too many header fields"));
        }
        if (AsciiString.contentEquals(headers.method(), CONNECT)) {
            // RFC 9113, section 8.5: a tunnel, which Parry does not offer.
            throw new RefusedHead(
                    new RequestChecks.Refusal(HttpStatus.NOT_IMPLEMENTED, Rejection.BAD_REQUEST, "CONNECT"));
        }
        checkHost();
        try {
            return HttpRequest.builder(method(headers.method()), path(headers.path(), runtime))
                    .headers(fields);
        } catch (PathRedirect redirect) {
            throw new RefusedHead(RequestChecks.redirect(redirect.location()));
        } catch (IllegalArgumentException e) {
            throw new RefusedHead(RequestChecks.badRequest(e.getMessage()));
        }
    }

    private HttpMethod method(CharSequence entry) {
        if (!sameText(entry, methodEntry)) {
            method = HttpMethod.of(entry.toString());
            methodEntry = entry instanceof AsciiString ? entry : null;
        }
        return method;
    }

    private void checkHost() throws RefusedHead {
        if (!repeatedHost && (host == null || host.equals(validHost))) {
            return;
        }
        RequestChecks.Refusal refusal = RequestChecks.checkHost(host, repeatedHost);
        if (refusal != null) {
            throw new RefusedHead(refusal);
        }
        validHost = host;
    }

    /** The normalised path; the listener's {@link TargetNormalizer} throws for a refused one, which is not kept. */
    private String path(CharSequence entry, ServerRuntime runtime) {
        if (!sameText(entry, pathEntry)) {
            pathEntry = null;
            path = runtime.paths.normalize(entry.toString());
            pathEntry = entry instanceof AsciiString ? entry : null;
        }
        return path;
    }

    /** Whether a field of this block has the text {@code kept} had, which is an {@link AsciiString} nobody changes. */
    private static boolean sameText(CharSequence entry, CharSequence kept) {
        return entry == kept || (kept != null && entry instanceof AsciiString ascii && ascii.contentEquals(kept));
    }

    /** The Host of the block read last, from {@code :authority} when it has none; {@code null} without either. */
    String host() {
        return host;
    }

    /** Whether the block read last asks for 100 Continue (RFC 9110, section 10.1.1). */
    boolean expectsContinue() {
        return "100-continue".equalsIgnoreCase(expect);
    }

    /** The body length the block read last declares, -1 when it declares none. */
    long contentLength() throws RefusedHead {
        String value = contentLength;
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
