package io.parry.proxy;

import io.parry.client.ClientException;
import io.parry.client.ClientTimeoutException;
import io.parry.client.ConnectionClosedException;
import io.parry.client.InvalidResponseException;
import io.parry.client.LocalResourceException;
import io.parry.client.PoolExhaustedException;
import io.parry.client.RequestBodyException;
import io.parry.client.UpstreamConnectException;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.http.Problem;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * What the downstream client is told when no upstream answer can be passed on: 503 when no upstream
 * could take the request (refused, full, no healthy endpoint, or no socket left in this process), 504
 * when one took too long, 502 when one answered badly or broke the connection. The detail names the
 * upstream group, never an address.
 *
 * <p>And which side caused a failure. The downstream client did ({@link #clientEnding}) when the
 * response body it stopped reading was cancelled, or when the client reports a failure its caller
 * caused ({@link ClientException#callerCaused()}): the request body failed, as it does when the
 * client sends a malformed or oversized body, is too slow to send it, or goes away while sending, or
 * a timeout expired while the client was not reading the response. Everything else (no connection, a
 * reset, a timeout waiting on the upstream, an invalid response) is the upstream's.
 */
final class ProxyFailures {
    private ProxyFailures() {}

    static HttpStatusException noEndpoint(String upstream) {
        return new HttpStatusException(
                HttpStatus.SERVICE_UNAVAILABLE, "Upstream " + upstream + " has no healthy endpoint.");
    }

    static HttpStatusException busy(String upstream) {
        return new HttpStatusException(
                HttpStatus.SERVICE_UNAVAILABLE, "Upstream " + upstream + " has too many requests in flight.");
    }

    /**
     * The adaptive limit shed the request: the upstream is at the concurrency it serves without
     * slowing down. {@code Retry-After: 1} (RFC 9110, section 10.2.3): a second is many windows of the
     * limit, and a client that waits that long finds places freed.
     */
    static HttpStatusException overloaded(String upstream) {
        return new HttpStatusException(
                HttpStatus.SERVICE_UNAVAILABLE, "Upstream " + upstream + " is at its concurrency limit.");
    }

    /**
     * The answer to every request the adaptive limit sheds, made once per group: a shed costs no
     * problem serialised and no header copied, as it comes when the gateway is busiest.
     */
    static CompletableFuture<HttpResponse> shedAnswer(String upstream, boolean grpc) {
        HttpStatusException refusal = overloaded(upstream);
        return CompletableFuture.completedFuture(
                grpc
                        ? GrpcCalls.status(refusal)
                        : Problem.of(refusal.status())
                                .detail(refusal.detail())
                                .toResponse()
                                .withHeader("retry-after", "1"));
    }

    /** Cross-site WebSocket hijacking: a page of another origin may not open a session (RFC 6455, section 10.2). */
    static HttpStatusException originRefused(String origin) {
        return new HttpStatusException(HttpStatus.FORBIDDEN, "Origin " + origin + " may not open a WebSocket here.");
    }

    /** A gRPC call whose deadline passed before an attempt could start: no upstream is to blame. */
    static HttpStatusException deadlinePassed(String upstream) {
        return new HttpStatusException(
                HttpStatus.GATEWAY_TIMEOUT, "The call's deadline passed before upstream " + upstream + " was called.");
    }

    static HttpStatusException noUpstream() {
        return new HttpStatusException(HttpStatus.SERVICE_UNAVAILABLE, "No upstream serves this request.");
    }

    static HttpStatusException of(Throwable failure, String upstream) {
        Throwable cause = unwrap(failure);
        if (cause instanceof LocalResourceException) {
            return new HttpStatusException(
                    HttpStatus.SERVICE_UNAVAILABLE,
                    "The gateway cannot open another connection to upstream " + upstream + " now.",
                    cause);
        }
        if (cause instanceof UpstreamConnectException || cause instanceof PoolExhaustedException) {
            return new HttpStatusException(
                    HttpStatus.SERVICE_UNAVAILABLE, "Upstream " + upstream + " is unavailable.", cause);
        }
        if (cause instanceof ClientTimeoutException) {
            return new HttpStatusException(
                    HttpStatus.GATEWAY_TIMEOUT, "Upstream " + upstream + " did not answer in time.", cause);
        }
        if (cause instanceof InvalidResponseException || cause instanceof ConnectionClosedException) {
            return new HttpStatusException(
                    HttpStatus.BAD_GATEWAY, "Upstream " + upstream + " sent an invalid response.", cause);
        }
        return new HttpStatusException(
                HttpStatus.BAD_GATEWAY, "Upstream " + upstream + " could not be reached.", cause);
    }

    /**
     * How the downstream client ended the exchange when it, not the upstream, caused {@code failure};
     * {@code null} for a failure the upstream may have caused.
     */
    static ProxyObserver.ClientEnding clientEnding(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause == ObservedBody.CANCELLED) {
            return ProxyObserver.ClientEnding.STOPPED_READING;
        }
        if (!(cause instanceof ClientException client) || !client.callerCaused()) {
            return null;
        }
        if (!(cause instanceof RequestBodyException)) {
            return ProxyObserver.ClientEnding.STOPPED_READING; // A timeout while it was not reading.
        }
        return bodyEnding(cause.getCause());
    }

    /** How the client broke a request body that failed with {@code failure}, as the server refused it. */
    static ProxyObserver.ClientEnding bodyEnding(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof HttpStatusException refused) {
            return switch (refused.status().code()) {
                case 400 -> ProxyObserver.ClientEnding.MALFORMED_BODY;
                case 408 -> ProxyObserver.ClientEnding.BODY_TIMEOUT;
                case 413 -> ProxyObserver.ClientEnding.BODY_TOO_LARGE;
                default -> ProxyObserver.ClientEnding.BODY_FAILED;
            };
        }
        return cause instanceof IOException
                ? ProxyObserver.ClientEnding.CLOSED_MID_BODY
                : ProxyObserver.ClientEnding.BODY_FAILED;
    }

    /**
     * The downstream answer to a failure the client caused: the server's own refusal of the request
     * body (400, 408, 413) when it refused it, 400 when the client went away mid-body, else the body's
     * own failure (a filter's bug: a 500 that reveals nothing). Never a 5xx that blames the upstream.
     */
    static Throwable ofClient(Throwable failure) {
        Throwable cause = unwrap(failure);
        Throwable body = cause instanceof RequestBodyException && cause.getCause() != null ? cause.getCause() : cause;
        if (body instanceof IOException) {
            // The client went away: nobody reads the answer, and it is no error of the server's to log.
            return new HttpStatusException(HttpStatus.BAD_REQUEST, "The request body did not arrive in full.", body);
        }
        return body;
    }

    static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
