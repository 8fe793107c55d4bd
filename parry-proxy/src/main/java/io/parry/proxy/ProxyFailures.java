package io.parry.proxy;

import io.parry.client.ClientTimeoutException;
import io.parry.client.ConnectionClosedException;
import io.parry.client.InvalidResponseException;
import io.parry.client.PoolExhaustedException;
import io.parry.client.UpstreamConnectException;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import java.util.concurrent.CompletionException;

/**
 * What the downstream client is told when no upstream answer can be passed on: 503 when no upstream
 * could take the request (refused, full, no healthy endpoint), 504 when one took too long, 502 when
 * one answered badly or broke the connection. The detail names the upstream group, never an address.
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

    static HttpStatusException noUpstream() {
        return new HttpStatusException(HttpStatus.SERVICE_UNAVAILABLE, "No upstream serves this request.");
    }

    static HttpStatusException of(Throwable failure, String upstream) {
        Throwable cause = unwrap(failure);
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

    static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
