package io.parry.gateway.internal.routing;

import static java.util.Objects.requireNonNull;

import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.http.HttpStatus;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Answers with a redirect to a fixed location or, keeping the path, to the location followed by the
 * request's path after the route's prefix and its query: with prefix {@code /old} and location
 * {@code /new}, {@code /old/a?b=1} goes to {@code /new/a?b=1}.
 */
public final class Redirect implements Handler {
    private static final int FIXED = -1;
    private static final int QUERY_ONLY = -2;

    private final HttpStatus status;
    private final String location;
    private final int keptFrom;
    private final CompletionStage<HttpResponse> fixed;

    private Redirect(HttpStatus status, String location, int keptFrom) {
        this.status = status;
        this.location = location;
        this.keptFrom = keptFrom;
        this.fixed = keptFrom == FIXED
                ? CompletableFuture.completedFuture(HttpResponse.of(status).withHeader("location", location))
                : null;
    }

    /**
     * A redirect with this status (301, 302, 303, 307 or 308) to the location.
     *
     * @param prefix the route's prefix, or {@code null} when it matches a path or template; with
     *     {@code keepPath}, the part of the request's path after the prefix is kept, and after any
     *     other kind of path only the query
     */
    public static Redirect of(int status, String location, boolean keepPath, String prefix) {
        requireNonNull(location, "location");
        if (status != 301 && status != 302 && status != 303 && status != 307 && status != 308) {
            throw new IllegalArgumentException("status: " + status + " (expected: 301, 302, 303, 307 or 308)");
        }
        int keptFrom = !keepPath ? FIXED : prefix != null ? prefixLength(prefix) : QUERY_ONLY;
        return new Redirect(HttpStatus.of(status), location, keptFrom);
    }

    @Override
    public CompletionStage<HttpResponse> handle(RequestContext ctx, HttpRequest request) {
        if (fixed != null) {
            return fixed;
        }
        StringBuilder target = new StringBuilder(location);
        if (keptFrom >= 0) {
            String rest = request.path().substring(keptFrom);
            boolean doubleSlash = location.endsWith("/") && rest.startsWith("/");
            target.append(rest, doubleSlash ? 1 : 0, rest.length());
        }
        if (!request.query().isEmpty()) {
            target.append('?').append(request.query());
        }
        return CompletableFuture.completedFuture(HttpResponse.of(status).withHeader("location", target.toString()));
    }

    /** The root prefix keeps the whole path, so {@code /} with {@code /new} sends {@code /a} to {@code /new/a}. */
    private static int prefixLength(String prefix) {
        return prefix.equals("/") ? 0 : prefix.length();
    }
}
