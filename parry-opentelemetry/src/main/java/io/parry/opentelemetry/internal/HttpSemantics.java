package io.parry.opentelemetry.internal;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.semconv.HttpAttributes;
import io.parry.http.HttpMethod;
import java.net.InetSocketAddress;
import java.util.Set;

/** The parts of the HTTP semantic conventions that both span kinds share. */
final class HttpSemantics {
    /** What {@code http.request.method} holds for a method the conventions do not know. */
    static final String OTHER_METHOD = "_OTHER";

    /** RFC 9110's methods and PATCH (RFC 5789): the ones the conventions name as they are. */
    private static final Set<String> KNOWN_METHODS =
            Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");

    private HttpSemantics() {}

    /** Sets {@code http.request.method}, with the original name when it is not a known method. */
    static void method(SpanBuilder span, HttpMethod method) {
        String name = method.name();
        if (KNOWN_METHODS.contains(name)) {
            span.setAttribute(HttpAttributes.HTTP_REQUEST_METHOD, name);
        } else {
            span.setAttribute(HttpAttributes.HTTP_REQUEST_METHOD, OTHER_METHOD);
            span.setAttribute(HttpAttributes.HTTP_REQUEST_METHOD_ORIGINAL, name);
        }
    }

    /** Sets {@code http.request.method} on a started span, as {@link #method(SpanBuilder, HttpMethod)} does. */
    static void method(Span span, HttpMethod method) {
        String name = method.name();
        if (KNOWN_METHODS.contains(name)) {
            span.setAttribute(HttpAttributes.HTTP_REQUEST_METHOD, name);
        } else {
            span.setAttribute(HttpAttributes.HTTP_REQUEST_METHOD, OTHER_METHOD);
            span.setAttribute(HttpAttributes.HTTP_REQUEST_METHOD_ORIGINAL, name);
        }
    }

    /** The span name's method part: the method, or {@code HTTP} for one the conventions do not know. */
    static String spanName(HttpMethod method) {
        return method == null || !KNOWN_METHODS.contains(method.name()) ? "HTTP" : method.name();
    }

    /** The version in {@code HTTP/1.1}: {@code 1.1}. */
    static String protocolVersion(String protocol) {
        int slash = protocol.indexOf('/');
        return slash < 0 ? protocol : protocol.substring(slash + 1);
    }

    /** The IP address, without a reverse lookup; {@code null} when unknown. */
    static String address(InetSocketAddress address) {
        if (address == null) {
            return null;
        }
        return address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
    }
}
