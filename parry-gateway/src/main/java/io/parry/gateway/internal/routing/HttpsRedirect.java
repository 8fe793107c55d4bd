package io.parry.gateway.internal.routing;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.http.HttpStatusException;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The cleartext redirect listener's handler: answers every request with 308 (RFC 9110, section
 * 15.4.9, so the method and body are kept) to the same host, path and query over HTTPS on the TLS
 * listener's port. A request without {@code Host} gets 400: there is no URL to send it to.
 */
public final class HttpsRedirect implements Handler {
    private final String portSuffix;

    /** Redirects to {@code httpsPort}, left out of the location when it is 443. */
    public HttpsRedirect(int httpsPort) {
        this.portSuffix = httpsPort == 443 ? "" : ":" + httpsPort;
    }

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) {
        String authority = request.authority();
        if (authority == null || authority.isEmpty()) {
            return CompletableFuture.failedFuture(
                    new HttpStatusException(HttpStatus.BAD_REQUEST, "A request for HTTPS needs a Host field."));
        }
        String location = "https://" + hostOf(authority) + portSuffix + request.target();
        return CompletableFuture.completedFuture(
                HttpResponse.of(HttpStatus.PERMANENT_REDIRECT).withHeader("location", location));
    }

    /** The host of {@code host[:port]}, an IPv6 literal keeping its brackets. */
    private static String hostOf(String authority) {
        int colon = authority.lastIndexOf(':');
        int bracket = authority.lastIndexOf(']');
        return colon > bracket ? authority.substring(0, colon) : authority;
    }
}
