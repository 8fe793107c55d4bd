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
 * A block whose regular fields and {@code :authority} are the last block's gets the last block's
 * headers, and with the same method and path its request, both immutable: such a stream costs no
 * field copy, no target parse and no request object.
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

    /** The regular fields of the last HPACK-decoded block as decoded, names and values alternating, and how many. */
    private CharSequence[] lastEntries = new CharSequence[0];

    private int lastCount;
    private CharSequence lastAuthority;
    /** The headers made of {@link #lastEntries} and {@link #lastAuthority}; {@code null} before the first block. */
    private HttpHeaders lastFields;
    /** The last request made, without its body; {@code null} before the first. */
    private HttpRequest lastRequest;

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
        boolean same = decoded && lastFields != null;
        int count = 0;
        for (Map.Entry<CharSequence, CharSequence> field : headers) {
            CharSequence name = field.getKey();
            if (isPseudoHeader(name)) {
                continue;
            }
            CharSequence value = field.getValue();
            noteFraming(name, value);
            same = same
                    && count < lastCount
                    && sameText(name, lastEntries[2 * count])
                    && sameText(value, lastEntries[2 * count + 1]);
            count++;
        }
        boolean hostSent = host != null;
        CharSequence authority = headers.authority();
        if (authority != null) {
            // RFC 9113, section 8.3.1: a Host naming another origin than :authority makes the request malformed.
            if (hostSent && !AsciiCase.equalsIgnoreCase(host, authority.toString())) {
                throw new RefusedHead(RequestChecks.badRequest(":authority and Host differ"));
            }
            if (!hostSent) {
                host = authority.toString();
            }
        }
        if (same && count == lastCount && sameText(authority, lastAuthority)) {
            return lastFields;
        }
        HttpHeaders fields = collect(headers, count, authority != null && !hostSent, decoded);
        if (decoded) {
            remember(headers, count, authority, fields);
        }
        return fields;
    }

    private static boolean isPseudoHeader(CharSequence name) {
        return name.length() > 0 && name.charAt(0) == ':';
    }

    /** The block's {@code count} regular fields, cookies joined, then {@code host} (from {@link #host}) if asked. */
    private HttpHeaders collect(Http2Headers headers, int count, boolean addHost, boolean decoded) throws RefusedHead {
        String[] entries = new String[2 * count + 2];
        int size = 0;
        String cookie = null;
        for (Map.Entry<CharSequence, CharSequence> field : headers) {
            CharSequence name = field.getKey();
            if (isPseudoHeader(name)) {
                continue;
            }
            String value = field.getValue().toString();
            // HPACK names are lower case (RFC 9113, section 8.2.1, which Netty enforces).
            if (AsciiString.contentEquals(name, COOKIE)) {
                // RFC 9113, section 8.2.3: split crumbs are joined again for HTTP/1.1 semantics.
                cookie = cookie == null ? value : cookie + "; " + value;
                continue;
            }
            entries[2 * size] = name.toString();
            entries[2 * size++ + 1] = value;
        }
        if (addHost) {
            entries[2 * size] = "host";
            entries[2 * size++ + 1] = host;
        }
        if (cookie != null) {
            entries[2 * size] = "cookie";
            entries[2 * size++ + 1] = cookie;
        }
        return decoded ? CheckedFields.of(entries, size) : checked(entries, size);
    }

    /** Keeps the block's regular fields as decoded, its {@code :authority} and the headers made of them. */
    private void remember(Http2Headers headers, int count, CharSequence authority, HttpHeaders fields) {
        if (lastEntries.length < 2 * count) {
            lastEntries = new CharSequence[2 * count];
        }
        int index = 0;
        for (Map.Entry<CharSequence, CharSequence> field : headers) {
            if (!isPseudoHeader(field.getKey())) {
                lastEntries[index++] = field.getKey();
                lastEntries[index++] = field.getValue();
            }
        }
        Arrays.fill(lastEntries, index, lastEntries.length, null);
        lastCount = count;
        lastAuthority = authority;
        lastFields = fields;
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

    private void noteFraming(CharSequence name, CharSequence value) {
        if (AsciiString.contentEquals(name, HOST)) {
            repeatedHost |= host != null;
            host = value.toString();
        } else if (AsciiString.contentEquals(name, CONTENT_LENGTH) && contentLength == null) {
            contentLength = value.toString();
        } else if (AsciiString.contentEquals(name, EXPECT)) {
            expect = value.toString();
        }
    }

    /**
     * The request of the block whose {@link #fields} these are, without a body (add it with {@link
     * HttpRequest#withBody}), or a refusal.
     */
    HttpRequest request(Http2Headers headers, HttpHeaders fields, ServerRuntime runtime) throws RefusedHead {
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
            HttpMethod method = method(headers.method());
            String path = path(headers.path(), runtime);
            HttpRequest last = lastRequest;
            // The same strings and headers make the same request (a target whose authority replaced the
            // Host field made other headers, and is built again).
            if (last != null && last.headers() == fields && last.method() == method && last.target() == path) {
                return last;
            }
            HttpRequest request =
                    HttpRequest.builder(method, path).headers(fields).build();
            lastRequest = request;
            return request;
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
