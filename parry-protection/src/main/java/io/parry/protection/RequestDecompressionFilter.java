package io.parry.protection;

import io.parry.http.HttpBody;
import io.parry.http.HttpRequest;
import io.parry.http.HttpResponse;
import io.parry.protection.internal.ContentCoding;
import io.parry.protection.internal.InflatingBody;
import io.parry.server.Filter;
import io.parry.server.Handler;
import io.parry.server.RequestContext;
import java.util.concurrent.CompletionStage;

/**
 * Decompresses request bodies sent with {@code Content-Encoding: gzip} (or {@code x-gzip}) or {@code
 * deflate}, so that handlers and upstreams behind it see the plain body, and refuses one that inflates
 * past {@link #maxSize()} with 413. Opt-in: a server that never meant to accept compressed bodies
 * should not start inflating them. Immutable and shared by all requests.
 *
 * <pre>{@code
 * Handler app = router.with(RequestDecompressionFilter.of(8 << 20));
 * }</pre>
 *
 * <p>The body is inflated chunk by chunk as the handler reads it, never held whole, and no buffer is
 * ever larger than what is left of the bound: a few kilobytes that inflate to gigabytes (a "zip bomb")
 * cost at most the bound before the 413. Data that is not valid gzip or deflate, or ends early, fails
 * the body with 400. The request reaches the handler without {@code Content-Encoding} and {@code
 * Content-Length} (its length is no longer known). Any other coding, or more than one, passes through
 * untouched, for the handler to accept or refuse (RFC 9110, section 8.4: 415). The server's own body
 * limit still bounds the compressed bytes.
 */
public final class RequestDecompressionFilter implements Filter {
    private final long maxSize;

    private RequestDecompressionFilter(long maxSize) {
        this.maxSize = maxSize;
    }

    /**
     * A filter that refuses bodies inflating past {@code maxSize} bytes.
     *
     * @throws IllegalArgumentException when {@code maxSize} is not positive
     */
    public static RequestDecompressionFilter of(long maxSize) {
        if (maxSize <= 0) {
            throw new IllegalArgumentException("maxSize: " + maxSize + " (expected: > 0)");
        }
        return new RequestDecompressionFilter(maxSize);
    }

    /** The most bytes a body may inflate to. */
    public long maxSize() {
        return maxSize;
    }

    @Override
    public CompletionStage<HttpResponse> filter(Handler next, RequestContext ctx, HttpRequest request)
            throws Exception {
        String encoding = request.headers().get("content-encoding");
        ContentCoding coding = encoding == null ? null : ContentCoding.of(encoding.trim());
        // A request without content (a GET that names a coding) keeps its framing: there is nothing to inflate.
        if (coding == null
                || request.body().contentLength() == 0
                || request.headers().getAll("content-encoding").size() > 1) {
            return next.handle(ctx, request);
        }
        HttpBody inflated = InflatingBody.of(request.body(), coding, maxSize);
        HttpRequest plain = request.withBody(inflated)
                .mapHeaders(edits -> edits.remove("content-encoding").remove("content-length"));
        return next.handle(ctx, plain);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RequestDecompressionFilter that && maxSize == that.maxSize;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(maxSize);
    }

    @Override
    public String toString() {
        return "RequestDecompressionFilter[maxSize=" + maxSize + "]";
    }
}
