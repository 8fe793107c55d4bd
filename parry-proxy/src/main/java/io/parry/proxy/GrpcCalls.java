package io.parry.proxy;

import io.parry.http.HttpBody;
import io.parry.http.HttpHeaders;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.spi.AggregatingSubscriber;
import io.parry.http.spi.AsciiCase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * What the proxy does for a gRPC call ({@code content-type: application/grpc*}): {@code grpc-timeout}
 * bounds the upstream call as its deadline (see {@link GrpcDeadline}), and a failure the proxy would answer with a problem page
 * (no endpoint, a refused connection, an open breaker, a timeout) or an upstream error status without
 * {@code grpc-status} becomes a gRPC status instead: HTTP 200 with {@code grpc-status} and {@code
 * grpc-message} and no body, which HTTP/2 sends as one HEADERS frame ending the stream ("Trailers-Only"
 * in the gRPC over HTTP/2 protocol). A gRPC client reads a problem page only as a protocol error.
 */
final class GrpcCalls {
    static final int DEADLINE_EXCEEDED = 4;
    static final int UNAVAILABLE = 14;
    private static final int UNKNOWN = 2;
    private static final int INVALID_ARGUMENT = 3;
    private static final int PERMISSION_DENIED = 7;
    private static final int RESOURCE_EXHAUSTED = 8;
    private static final int UNIMPLEMENTED = 12;
    private static final int INTERNAL = 13;
    private static final int UNAUTHENTICATED = 16;
    /** The gRPC protocol's bound on the digits of a timeout value. */
    private static final int MAX_TIMEOUT_DIGITS = 8;

    private GrpcCalls() {}

    static boolean isGrpc(HttpRequest request) {
        String type = request.headers().get("content-type");
        return type != null && type.length() >= 16 && AsciiCase.regionEqualsIgnoreCase(type, 0, 16, "application/grpc");
    }

    /**
     * A {@code grpc-timeout} value: up to 8 digits and a unit ({@code H M S m u n}), or {@code null}
     * when absent or malformed (then ignored, as gRPC servers do).
     */
    static Duration deadline(String value) {
        if (value == null || value.length() < 2 || value.length() > MAX_TIMEOUT_DIGITS + 1) {
            return null;
        }
        long amount = 0;
        for (int i = 0; i < value.length() - 1; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            amount = amount * 10 + (c - '0');
        }
        Duration deadline =
                switch (value.charAt(value.length() - 1)) {
                    case 'H' -> Duration.ofHours(amount);
                    case 'M' -> Duration.ofMinutes(amount);
                    case 'S' -> Duration.ofSeconds(amount);
                    case 'm' -> Duration.ofMillis(amount);
                    case 'u' -> Duration.ofNanos(amount * 1_000);
                    case 'n' -> Duration.ofNanos(amount);
                    default -> null;
                };
        // Zero would read as no timeout; the call is already late.
        return deadline == null || !deadline.isZero() ? deadline : Duration.ofNanos(1);
    }

    /**
     * The stage the proxy returns for a gRPC call: failures and error statuses become gRPC statuses.
     * Completing it from outside (a filter's timeout) cancels the proxy's own stage, and with it the
     * upstream call, as for any proxied request.
     */
    static CompletableFuture<HttpResponse> answer(CompletableFuture<HttpResponse> proxied) {
        CompletableFuture<HttpResponse> answer = proxied.handle((response, failure) -> {
            if (failure != null) {
                return status(ProxyFailures.unwrap(failure));
            }
            return ofUpstream(response);
        });
        answer.whenComplete((response, failure) -> proxied.cancel(false));
        return answer;
    }

    /** The upstream's response, or a gRPC status for an error status it sent without one. */
    static HttpResponse ofUpstream(HttpResponse response) {
        int code = response.status().code();
        if (response.headers().contains("grpc-status")) {
            // A trailers-only response: its one header block must end the stream, as gRPC clients read
            // grpc-status only in a block that does; a known empty body makes the server send it so.
            response.body().subscribe(AggregatingSubscriber.cancelling());
            return response.withBody(HttpBody.empty());
        }
        if (code == 200) {
            return response;
        }
        response.body().subscribe(AggregatingSubscriber.cancelling());
        return status(ofHttp(code), "upstream answered HTTP " + code);
    }

    /** A gRPC status for a failure: its HTTP status's meaning, or INTERNAL for anything else. */
    static HttpResponse status(Throwable failure) {
        if (failure instanceof HttpStatusException refused) {
            int code = refused.status().code();
            return status(code == 504 || code == 408 ? DEADLINE_EXCEEDED : ofHttp(code), refused.getMessage());
        }
        return status(INTERNAL, "the proxy failed");
    }

    /** The gRPC code for an HTTP status, as gRPC's own clients map one ("HTTP to gRPC Status Code Mapping"). */
    static int ofHttp(int code) {
        return switch (code) {
            case 400 -> INTERNAL;
            case 401 -> UNAUTHENTICATED;
            case 403 -> PERMISSION_DENIED;
            case 404 -> UNIMPLEMENTED;
            case 413 -> RESOURCE_EXHAUSTED;
            case 429, 502, 503, 504 -> UNAVAILABLE;
            case 422 -> INVALID_ARGUMENT;
            default -> UNKNOWN;
        };
    }

    static HttpResponse status(int grpcStatus, String message) {
        return HttpResponse.of(
                HttpStatus.OK,
                HttpHeaders.of(
                        "content-type", "application/grpc",
                        "grpc-status", Integer.toString(grpcStatus),
                        "grpc-message", percentEncoded(message == null ? "" : message)),
                HttpBody.empty());
    }

    /** RFC 3986 percent-encoding of what the gRPC protocol keeps out of grpc-message. */
    private static String percentEncoded(String message) {
        StringBuilder out = null;
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            int b = bytes[i] & 0xff;
            boolean plain = b >= 0x20 && b <= 0x7e && b != '%';
            if (out == null && !plain) {
                out = new StringBuilder(bytes.length + 8);
                out.append(new String(bytes, 0, i, StandardCharsets.US_ASCII));
            }
            if (out != null) {
                if (plain) {
                    out.append((char) b);
                } else {
                    out.append('%')
                            .append(Character.toUpperCase(Character.forDigit(b >> 4, 16)))
                            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
                }
            }
        }
        return out == null ? message : out.toString();
    }
}
