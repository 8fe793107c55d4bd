package io.parry.client.internal;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.parry.client.Endpoint;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpMethod;
import io.parry.http.HttpRequest;
import io.parry.http.spi.AsciiCase;
import java.util.Map;

/**
 * Request and response heads as HTTP/2 header blocks (RFC 9113, section 8.3): pseudo-header fields
 * first, names in lower case, and none of the connection-specific fields HTTP/2 forbids.
 */
final class H2Heads {
    /** The version a response received over HTTP/2 reports, spelt as the server spells its requests'. */
    static final String PROTOCOL = "HTTP/2.0";

    private H2Heads() {}

    /**
     * The request's header block: {@code :authority} from its {@code Host} field or the endpoint,
     * {@code content-length} for a known length (-1 for none).
     */
    static Http2Headers request(HttpRequest request, Endpoint endpoint, long length) {
        HttpHeaders fields = request.headers();
        // Netty validates names as they are added; Parry's fields are validated already.
        Http2Headers headers = new DefaultHttp2Headers(false, fields.size() + 6);
        String host = fields.get("host");
        String query = request.query();
        headers.method(request.method().name())
                .scheme(endpoint.secure() ? "https" : "http")
                .authority(host != null ? host : endpoint.authority())
                .path(query.isEmpty() ? request.path() : request.path() + "?" + query);
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            String value = fields.value(i);
            if (sendable(name, value)) {
                headers.add(lowerCase(name), value);
            }
        }
        if (length > 0 || (length == 0 && expectsContent(request.method()))) {
            headers.set("content-length", Long.toString(length));
        }
        return headers;
    }

    /** Parry's validated copy of the regular fields of a received block, without pseudo-header fields. */
    static HttpHeaders fields(Http2Headers block) {
        HttpHeaders.Builder builder = HttpHeaders.builder();
        for (Map.Entry<CharSequence, CharSequence> field : block) {
            CharSequence name = field.getKey();
            if (name.length() > 0 && name.charAt(0) != ':') {
                builder.add(name.toString(), field.getValue().toString());
            }
        }
        return builder.build();
    }

    /** A trailer block from Parry's trailers, less the fields HTTP/2 forbids. */
    static Http2Headers trailers(HttpHeaders trailers) {
        Http2Headers headers = new DefaultHttp2Headers(false, trailers.size());
        for (int i = 0; i < trailers.size(); i++) {
            if (sendable(trailers.name(i), trailers.value(i))) {
                headers.add(lowerCase(trailers.name(i)), trailers.value(i));
            }
        }
        return headers;
    }

    /**
     * RFC 9113, section 8.2.2: connection-specific fields are malformed in HTTP/2, and {@code TE} may
     * only say {@code trailers} (which gRPC needs). {@code Host} travels as {@code :authority}
     * (section 8.3.1), and the length is the client's to declare.
     */
    private static boolean sendable(String name, String value) {
        switch (name.length()) {
            case 2:
                return !AsciiCase.equalsIgnoreCase(name, "te") || AsciiCase.equalsIgnoreCase(value.trim(), "trailers");
            case 4:
                return !AsciiCase.equalsIgnoreCase(name, "host");
            case 7:
                return !AsciiCase.equalsIgnoreCase(name, "upgrade");
            case 10:
                return !AsciiCase.equalsIgnoreCase(name, "connection")
                        && !AsciiCase.equalsIgnoreCase(name, "keep-alive");
            case 14:
                return !AsciiCase.equalsIgnoreCase(name, "content-length");
            case 16:
                return !AsciiCase.equalsIgnoreCase(name, "proxy-connection");
            case 17:
                return !AsciiCase.equalsIgnoreCase(name, "transfer-encoding");
            default:
                return true;
        }
    }

    private static String lowerCase(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                StringBuilder lower = new StringBuilder(name.length());
                for (int j = 0; j < name.length(); j++) {
                    lower.append(AsciiCase.toLower(name.charAt(j)));
                }
                return lower.toString();
            }
        }
        return name;
    }

    /** RFC 9110, section 8.6, as for HTTP/1.1 ({@link RequestHeads}). */
    private static boolean expectsContent(HttpMethod method) {
        return !(method.equals(HttpMethod.GET)
                || method.equals(HttpMethod.HEAD)
                || method.equals(HttpMethod.DELETE)
                || method.equals(HttpMethod.OPTIONS)
                || method.equals(HttpMethod.TRACE));
    }
}
